// The baseline: a bare Koa hello-world answering a small JSON body. Started by bench/run.ts in
// its own process (PORT from the environment), like the service.
import process from 'node:process';
import Koa from 'koa';

const app = new Koa();
app.use((ctx) => {
  ctx.body = { hello: 'world' };
});

const server = app.listen(Number(process.env.PORT ?? 3999), '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
