// The server page's chart: players (solid, left scale) and fps (dashed, right scale) over a time
// range, drawn as SVG at the width it gets; a gap where the server was offline or sent nothing.
// The same numbers are in a table below it for people who do not see the lines.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { formatDateTime, formatTime, zoneName, zoneTicks } from './format.ts';
import { useTimeSettings } from './time-settings.ts';
import type { MetricsSample } from './types.ts';

const height = 220;
const margin = { top: 12, right: 44, bottom: 28, left: 40 };

/** A round upper bound for a scale: 1, 2, 5, 10, 20, 50, ... at least `value`. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(value));
  for (const m of [1, 2, 5, 10]) if (m * step >= value) return m * step;
  return 10 * step;
}

/** Path data of one series: segments split where a value is missing or samples are far apart. */
function linePath(points: { t: number; v: number | null }[], x: (t: number) => number, y: (v: number) => number, maxGapMs: number): string {
  let d = '';
  let previous: number | null = null;
  for (const p of points) {
    if (p.v === null) {
      previous = null;
      continue;
    }
    const move = previous === null || p.t - previous > maxGapMs;
    d += `${move ? 'M' : 'L'}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`;
    previous = p.t;
  }
  return d;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function MetricsChart({ samples, fromMs, toMs }: { samples: MetricsSample[]; fromMs: number; toMs: number }) {
  const box = useRef<HTMLDivElement>(null);
  const settings = useTimeSettings();
  const [width, setWidth] = useState(640);
  const id = useId();
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => entry && setWidth(Math.max(200, Math.floor(entry.contentRect.width))));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const points = samples.map((s) => ({ t: Date.parse(s.at), players: s.online ? s.players : null, fps: s.online ? s.fps : null }));
  const playersMax = niceMax(Math.max(0, ...points.map((p) => p.players ?? 0)));
  const fpsMax = niceMax(Math.max(60, ...points.map((p) => p.fps ?? 0)));
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const x = (t: number) => margin.left + ((t - fromMs) / (toMs - fromMs)) * plotW;
  const yPlayers = (v: number) => margin.top + plotH - (v / playersMax) * plotH;
  const yFps = (v: number) => margin.top + plotH - (v / fpsMax) * plotH;
  // Two missed samples in a row make a gap (a server sends one every few minutes or seconds).
  const maxGapMs = Math.max(3 * median(points.slice(1).map((p, i) => p.t - points[i]!.t)), 60_000);
  const hourMs = 3600_000;
  const tickStepMs = (toMs - fromMs) / hourMs > 12 && width < 520 ? 12 * hourMs : 6 * hourMs;
  const ticks = zoneTicks(fromMs, toMs, tickStepMs, settings.timeZone);

  const players = points.flatMap((p) => (p.players === null ? [] : [p.players]));
  const fps = points.flatMap((p) => (p.fps === null ? [] : [p.fps]));
  const summary =
    samples.length === 0
      ? 'No status samples in this time range.'
      : `${samples.length} samples. ${players.length ? `Players between ${Math.min(...players)} and ${Math.max(...players)}` : 'No player counts'}` +
        (fps.length ? `; fps between ${Math.min(...fps).toFixed(1)} and ${Math.max(...fps).toFixed(1)}.` : '; no fps reported.');

  return (
    <figure class="chart" ref={box}>
      <div class="legend" aria-hidden="true">
        <span>
          <span class="swatch players" />
          Players (left scale)
        </span>
        <span>
          <span class="swatch fps" />
          FPS (right scale)
        </span>
        <span>Times in {settings.timeZone === 'UTC' ? 'UTC' : `${settings.timeZone} (${zoneName(toMs, settings)})`}</span>
      </div>
      <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>
          Players and fps from {formatDateTime(new Date(fromMs).toISOString(), settings)} to{' '}
          {formatDateTime(new Date(toMs).toISOString(), settings)}
        </title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line
              x1={margin.left}
              x2={width - margin.right}
              y1={margin.top + plotH * (1 - f)}
              y2={margin.top + plotH * (1 - f)}
              stroke="#d5d8de"
            />
            <text x={margin.left - 6} y={margin.top + plotH * (1 - f) + 4} text-anchor="end" font-size="12" fill="#3d3d45">
              {Math.round(playersMax * f)}
            </text>
            <text x={width - margin.right + 6} y={margin.top + plotH * (1 - f) + 4} font-size="12" fill="#3d3d45">
              {Math.round(fpsMax * f)}
            </text>
          </g>
        ))}
        {ticks.map((t) => (
          <text key={t} x={x(t)} y={height - 8} text-anchor="middle" font-size="12" fill="#3d3d45">
            {formatTime(t, settings)}
          </text>
        ))}
        <path
          d={linePath(
            points.map((p) => ({ t: p.t, v: p.fps })),
            x,
            yFps,
            maxGapMs,
          )}
          fill="none"
          stroke="#b3261e"
          stroke-width="2"
          stroke-dasharray="6 4"
        />
        <path
          d={linePath(
            points.map((p) => ({ t: p.t, v: p.players })),
            x,
            yPlayers,
            maxGapMs,
          )}
          fill="none"
          stroke="#0b57d0"
          stroke-width="2.5"
        />
      </svg>
      <figcaption class="muted">{summary}</figcaption>
    </figure>
  );
}
