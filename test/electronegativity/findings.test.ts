import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import run from '@doyensec/electronegativity';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths';
import { AcceptedFileSchema, ScanResultSchema, covers, judge, passes, type AcceptedFile, type Issue } from './findings';

const issue = (id: string, file: string, sample: string): Issue => ({
  id,
  file,
  sample,
  location: { line: 1, column: 0 },
  severity: { name: 'MEDIUM' },
  confidence: { name: 'FIRM' },
  manualReview: true,
});
const reason = 'Reviewed: this is fine because of a good reason.';
const accepted: AcceptedFile = {
  excludedChecks: [],
  accepted: [{ id: 'PRELOAD_JS_CHECK', file: 'main/index.js', sampleIncludes: 'preload: settings.preloadPath', reason }],
};

describe('judge', () => {
  it('passes when every finding is accepted and every entry is used', () => {
    const scan = { globalChecks: 5, atomicChecks: 36, errors: [], issues: [issue('PRELOAD_JS_CHECK', 'main/index.js', 'preload: settings.preloadPath,')] };
    const verdict = judge(scan, accepted);
    expect(passes(verdict)).toBe(true);
    expect(verdict.accepted).toHaveLength(1);
  });

  it('fails on a finding nobody accepted', () => {
    const scan = {
      globalChecks: 5,
      atomicChecks: 36,
      errors: [],
      issues: [issue('PRELOAD_JS_CHECK', 'main/index.js', 'preload: settings.preloadPath,'), issue('SANDBOX_JS_CHECK', 'main/index.js', 'sandbox: false')],
    };
    const verdict = judge(scan, accepted);
    expect(passes(verdict)).toBe(false);
    expect(verdict.unaccepted.map((i) => i.id)).toEqual(['SANDBOX_JS_CHECK']);
  });

  it('matches on id, file and sample: the same check elsewhere is not accepted', () => {
    const entry = accepted.accepted[0]!;
    expect(covers(entry, issue('PRELOAD_JS_CHECK', 'main/index.js', 'x preload: settings.preloadPath y'))).toBe(true);
    expect(covers(entry, issue('PRELOAD_JS_CHECK', 'main\\index.js', 'preload: settings.preloadPath'))).toBe(true);
    expect(covers(entry, issue('PRELOAD_JS_CHECK', 'main/other.js', 'preload: settings.preloadPath'))).toBe(false);
    expect(covers(entry, issue('PRELOAD_JS_CHECK', 'main/index.js', 'preload: evilPath'))).toBe(false);
    expect(covers(entry, issue('CSP_GLOBAL_CHECK', 'main/index.js', 'preload: settings.preloadPath'))).toBe(false);
  });

  it('fails on a stale entry and on files the scanner could not parse', () => {
    expect(judge({ globalChecks: 5, atomicChecks: 36, errors: [], issues: [] }, accepted).stale).toHaveLength(1);
    const unparsed = judge(
      { globalChecks: 5, atomicChecks: 36, errors: [{ file: 'a.js', message: 'Unexpected token', tolerable: false }, { file: 'b.js', message: 'meh', tolerable: true }], issues: [issue('PRELOAD_JS_CHECK', 'main/index.js', 'preload: settings.preloadPath')] },
      accepted,
    );
    expect(unparsed.unparsed).toEqual([{ file: 'a.js', message: 'Unexpected token' }]);
    expect(passes(unparsed)).toBe(false);
  });
});

describe('the accepted-findings file', () => {
  it('parses, gives a reason for everything and stays short', () => {
    const file = AcceptedFileSchema.parse(JSON.parse(readFileSync(path.join(REPO_ROOT, 'electronegativity-accepted.json'), 'utf8')));
    expect(file.accepted.length).toBeLessThanOrEqual(5);
    expect(file.excludedChecks.length).toBeLessThanOrEqual(2);
  });

  it('refuses entries without a real reason', () => {
    expect(AcceptedFileSchema.safeParse({ excludedChecks: [], accepted: [{ id: 'X_CHECK', file: 'a.js', sampleIncludes: 'a', reason: 'ok' }] }).success).toBe(false);
    expect(AcceptedFileSchema.safeParse({ excludedChecks: [], accepted: [{ id: 'X_CHECK', file: 'a.js', reason }] }).success).toBe(false);
  });
});

describe('the real scanner on small bundles', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'packdesk-eng-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const scan = async (name: string, source: string) => {
    const input = path.join(dir, name);
    mkdirSync(path.join(input, 'main'), { recursive: true });
    writeFileSync(path.join(input, 'main', 'index.js'), source);
    return ScanResultSchema.parse(await run({ input, isRelative: true, electronVersionOverride: '40.8.5', excludeFromScan: ['availablesecurityfixesglobalcheck'] }));
  };

  it('catches an insecure window, so a regression in ours would fail the suite', async () => {
    const result = await scan(
      'insecure',
      `const { BrowserWindow, shell } = require('electron');
       function open(url) {
         const w = new BrowserWindow({ webPreferences: { contextIsolation: false, sandbox: false, webSecurity: false } });
         const v = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: true } });
         shell.openExternal(url);
         return [w, v];
       }`,
    );
    const ids = new Set(result.issues.map((i) => i.id));
    for (const id of ['NODE_INTEGRATION_JS_CHECK', 'CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK', 'WEB_SECURITY_JS_CHECK', 'OPEN_EXTERNAL_JS_CHECK']) expect(ids, id).toContain(id);
    expect(passes(judge(result, accepted))).toBe(false);
  });

  it('accepts a window built like src/main/window.ts with only the reviewed preload finding', async () => {
    const window = readFileSync(path.join(REPO_ROOT, 'src', 'main', 'window.ts'), 'utf8');
    // The literal handed to `new BrowserWindow(...)`, as it appears in the bundle (types removed).
    const literal = /return new BrowserWindow\((\{[\s\S]*?\n {2}\})\);/.exec(window)?.[1];
    expect(literal).toBeDefined();
    const result = await scan(
      'ours',
      `function createMainWindow(BrowserWindow, settings) { return new BrowserWindow(${literal}); }
       function guard(contents, session) {
         contents.on('will-navigate', (e) => e.preventDefault());
         contents.setWindowOpenHandler(() => ({ action: 'deny' }));
         session.setPermissionRequestHandler((c, p, cb) => cb(false));
       }
       module.exports = { createMainWindow, guard };`,
    );
    const windowFindings = result.issues.filter((i) => i.file === 'main/index.js');
    expect(windowFindings.map((i) => i.id)).toEqual(['PRELOAD_JS_CHECK']);
  });
});
