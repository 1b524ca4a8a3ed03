// The ban.txt and priority.txt formats: rendering both id forms, tolerant reading (comments,
// blanks, CRLF/LF, BOM, both forms), grouping a Steam64 and its DayZ ID into one ban; properties.
import test from 'ava';
import fc from 'fast-check';
import { banLines, bansOfIds, lineEndingOf, parseBanFile, parsePriorityFile, renderBanLines } from '../../src/game-files/ban-file.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';

const s1 = '76561197970002375';
const d1 = 'hYJaNGoMDv2QEno2R7tXKUSj8eXefMiv_UvAF_EUKto=';
const xbox = 'D0B9EDC7A5238AB0A559C250E9849B23D2629915';

test('a Steam64 ban is its Steam64 line then its DayZ ID line; a DayZ-ID or console ban its line alone', (t) => {
  t.deepEqual(banLines(s1), [s1, d1]);
  t.deepEqual(banLines(s1, d1), [s1, d1]);
  t.deepEqual(banLines(d1), [d1]);
  t.deepEqual(banLines(xbox), [xbox]);
  t.is(renderBanLines(s1, null, '\r\n'), `${s1}\r\n${d1}\r\n`);
  t.is(renderBanLines(xbox, null, '\n'), `${xbox}\n`);
});

test('reading: comments whole-line and trailing, blanks, CRLF, LF, a BOM, both forms; junk reported', (t) => {
  const text = `\uFEFF// my bans\r\n${s1} // aimbot\r\n\r\n   ${d1}\r\n${xbox}//x\r\nnot-an-id\r\n76561197970002375\r\n`;
  t.deepEqual(parseBanFile(text), { ids: [s1, d1, xbox], unreadable: ['not-an-id'] });
  t.deepEqual(parseBanFile(text.replaceAll('\r\n', '\n')).ids, [s1, d1, xbox]);
  t.deepEqual(parseBanFile('').ids, []);
  t.deepEqual(parsePriorityFile(`\uFEFF${s1};76561198000000001;\n// vip\n76561198000000002; // gold\r\n;;`).ids, [
    s1,
    '76561198000000001',
    '76561198000000002',
  ]);
  t.is(lineEndingOf('a\r\nb\n'), '\r\n');
  t.is(lineEndingOf('a\nb\r\n'), '\n');
  t.is(lineEndingOf('a'), undefined);
});

test('a Steam64 and its own DayZ ID line are one ban; another DayZ ID is a ban of its own', (t) => {
  const other = dayzIdOf('76561198000000009');
  t.deepEqual(bansOfIds([d1, s1, other, xbox]), [s1, other, xbox]);
});

const steam64 = fc.bigInt({ min: 76561197960265728n, max: 76561202255233023n }).map(String);
const anyId = fc.oneof(steam64, steam64.map(dayzIdOf), fc.stringMatching(/^[0-9A-F]{40}$/));

test('property: what is rendered reads back as the same ids, whatever the line ending, BOM or comments added', (t) => {
  fc.assert(
    fc.property(
      fc.uniqueArray(anyId, { maxLength: 20 }),
      fc.constantFrom('\r\n', '\n'),
      fc.boolean(),
      fc.array(
        fc.string({ maxLength: 20 }).filter((c) => !/[\r\n]/.test(c)),
        { maxLength: 3 },
      ),
      (ids, eol, bom, comments) => {
        const body = ids.map((id) => renderBanLines(id, null, eol as '\r\n' | '\n')).join('');
        const text = `${bom ? '\uFEFF' : ''}${comments.map((c) => `//${c}${eol}`).join('')}${body}`;
        const expected = [...new Set(ids.flatMap((id) => banLines(id)))];
        t.deepEqual(parseBanFile(text).ids, expected);
        t.deepEqual(
          bansOfIds(parseBanFile(text).ids).sort(),
          [...new Set(ids.map((id) => id))].filter((id) => !ids.some((o) => /^[0-9]{17}$/.test(o) && dayzIdOf(o) === id)).sort(),
        );
      },
    ),
  );
  t.pass();
});

test('property: the parsers never throw and only return platform ids', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
      for (const parsed of [parseBanFile(text), parsePriorityFile(text)]) {
        for (const id of parsed.ids) t.regex(id, /^(?:[0-9]{17}|[A-Za-z0-9_-]{43}=|[0-9A-F]{40})$/);
      }
    }),
  );
  t.pass();
});
