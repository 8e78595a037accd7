import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretRegistry, createLogger, createRotatingFileSink } from '../../../../src/main/core/log';

describe('rotating log files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'packdesk-logs-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes JSON lines and rotates by size, keeping N files', () => {
    const sink = createRotatingFileSink({ dir, maxBytes: 2048, keep: 3 });
    const log = createLogger([sink], { scope: 'test' });
    for (let i = 0; i < 200; i++) log.info(`line ${i}`, { i, pad: 'x'.repeat(40) });
    sink.close();
    const files = sink.files();
    expect(files.map((f) => basename(f))).toEqual(['packdesk.log', 'packdesk.1.log', 'packdesk.2.log']);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect(text.length).toBeLessThanOrEqual(2048);
      for (const line of text.trim().split('\n')) expect(JSON.parse(line)).toMatchObject({ level: 'info', scope: 'test' });
    }
    const newest = readFileSync(files[0]!, 'utf8').trim().split('\n').pop()!;
    expect(JSON.parse(newest).msg).toBe('line 199');
  });

  it('appends to the existing file after a restart', () => {
    const a = createRotatingFileSink({ dir });
    createLogger([a]).info('first');
    a.close();
    const b = createRotatingFileSink({ dir });
    createLogger([b]).info('second');
    b.close();
    expect(readFileSync(join(dir, 'packdesk.log'), 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('only ever sees redacted records', () => {
    const registry = new SecretRegistry();
    registry.add('s3cr3t-value-123');
    const sink = createRotatingFileSink({ dir });
    createLogger([sink], { registry }).warn('refused s3cr3t-value-123', { client_secret: 'whatever', header: 'O-Bearer abc.def' });
    sink.close();
    const text = readFileSync(join(dir, 'packdesk.log'), 'utf8');
    expect(text).not.toContain('s3cr3t-value-123');
    expect(text).not.toContain('whatever');
    expect(text).not.toContain('abc.def');
  });
});
