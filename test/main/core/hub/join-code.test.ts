/**
 * The join code: what the hub prints comes back whole when typed (in any case, with the usual
 * look-alike letters) or scanned from its QR code; one wrong character is named a typing mistake,
 * not a connection error; a code from a newer Packdesk or something else entirely says so.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatJoinCode, JOIN_CODE_WORDS, joinCodeBarcodePng, joinCodeBarcodeSvg, parseJoinCode } from '../../../../src/main/core/hub/join-code';

const run = promisify(execFile);
const target = { host: '192.168.1.23', port: 4222, secret: '0f1e2d3c4b5a69788796a5b4', fingerprint: 'c0ffee00112233445566778899aabbccddeeff00112233445566778899aabbcc' };

describe('join code', () => {
  it('round trips: address, port, secret and the fingerprint\'s first 96 bits', () => {
    const code = formatJoinCode(target);
    expect(code).toMatch(/^PD1(-[0-9A-HJKMNP-TV-Z]{4})+$/);
    // Short enough to type from a slip: 52 letters after the prefix.
    expect(code.replace(/^PD1-/, '').replace(/-/g, '')).toHaveLength(52);
    expect(parseJoinCode(code)).toEqual({ ok: true, code: { ...target, fingerprint: target.fingerprint.slice(0, 24) } });
  });

  it('reads a code typed in lower case, without dashes, with O for 0 and l for 1', () => {
    const code = formatJoinCode(target);
    const typed = code.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o').replace(/1/g, 'l');
    const parsed = parseJoinCode(typed);
    expect(parsed.ok && parsed.code.secret).toBe(target.secret);
  });

  it('names any one wrong character, a missing one or an extra one a typing mistake', () => {
    const code = formatJoinCode(target);
    const body = code.slice(4);
    let caught = 0;
    let tried = 0;
    for (let i = 0; i < body.length; i++) {
      if (body[i] === '-') continue;
      for (const ch of ['0', '7', 'K', 'Z']) {
        if (ch === body[i]) continue;
        tried++;
        const typo = `PD1-${body.slice(0, i)}${ch}${body.slice(i + 1)}`;
        const parsed = parseJoinCode(typo);
        if (!parsed.ok && parsed.kind === 'typo' && parsed.message === JOIN_CODE_WORDS.typo) caught++;
      }
    }
    expect(caught).toBe(tried);
    expect(parseJoinCode(code.slice(0, -1))).toMatchObject({ ok: false, message: 'This join code has a typing mistake. Check each letter and digit against the join slip (or scan its barcode).' });
    expect(parseJoinCode(`${code}A`)).toMatchObject({ ok: false, kind: 'typo' });
    // Two neighbours swapped.
    const swapped = `PD1-${body[1]}${body[0]}${body.slice(2)}`;
    if (swapped !== code) expect(parseJoinCode(swapped)).toMatchObject({ ok: false, kind: 'typo' });
  });

  it('says a code from a newer Packdesk needs an update, and that other text is not a join code', () => {
    expect(parseJoinCode(formatJoinCode(target).replace('PD1', 'PD2'))).toMatchObject({ ok: false, kind: 'newer' });
    expect(parseJoinCode('hello')).toMatchObject({ ok: false, kind: 'notACode' });
    expect(parseJoinCode('')).toMatchObject({ ok: false, kind: 'notACode' });
  });

  it('draws a QR code that a barcode reader (zbarimg) decodes back to the same code', async () => {
    const code = formatJoinCode(target);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'packdesk-join-'));
    try {
      const png = path.join(dir, 'join.png');
      writeFileSync(png, await joinCodeBarcodePng(code));
      const { stdout } = await run('zbarimg', ['--raw', '-q', png]);
      expect(stdout.trim()).toBe(code);
      expect(parseJoinCode(stdout.trim())).toMatchObject({ ok: true });
      const svg = joinCodeBarcodeSvg(code);
      expect(svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
