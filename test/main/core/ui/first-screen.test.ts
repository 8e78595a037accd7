/**
 * The queue's first screen in the page's HTML (core/ui/firstScreen): put into the page's root with
 * its language, and left out, never waited for, when its build is missing, fails or is late; the
 * page is then served as built. The drawing modules here are real files loaded as the shells load
 * the built one; the real drawing in a real page is test/e2e/first-screen.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, MemorySink } from '../../../../src/main/core/log';
import { createFirstScreenDrawer, FIRST_SCREEN_BUDGET_MS, firstScreenBuild, withFirstScreen, type FirstScreen, type HostAsk } from '../../../../src/main/core/ui';
import { manualTimers } from '../../../support/clock';
import { createAppProtocolHandler } from '../../../../src/main/protocol';

const dir = mkdtempSync(join(tmpdir(), 'packdesk-first-screen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PAGE = '<!doctype html>\n<html lang="en">\n  <head><title>Packdesk</title></head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>';
const ask: HostAsk = async (command) => ({ ok: true, value: { command } });

/** A drawing module on disk whose renderFirstScreen has `body`. */
function drawing(name: string, body: string): string {
  const file = join(dir, `${name}.cjs`);
  writeFileSync(file, `exports.renderFirstScreen = async function (ask) { ${body} };`);
  return file;
}

function logged() {
  const sink = new MemorySink();
  return { sink, log: createLogger([sink]) };
}

describe('withFirstScreen', () => {
  it('puts the drawing inside the empty root and the language on <html>', () => {
    const html = withFirstScreen(PAGE, { html: '<div class="first-screen">rows $& $1</div>', lang: 'hi-IN' });
    expect(html).toContain('<div id="root"><div class="first-screen">rows $& $1</div></div>');
    expect(html).toContain('<html lang="hi-IN">');
  });

  it('leaves the page as built without a drawing, without an empty root, or with a language that is not one', () => {
    expect(withFirstScreen(PAGE, null)).toBe(PAGE);
    const noRoot = PAGE.replace('<div id="root"></div>', '<div id="app"></div>');
    expect(withFirstScreen(noRoot, { html: 'x', lang: 'en-IN' })).toBe(noRoot);
    const odd = withFirstScreen(PAGE, { html: 'x', lang: '"><script>' });
    expect(odd).toContain('<html lang="en">');
    expect(odd).not.toContain('<script>');
  });

  it('drops the font preloads when the drawing\'s words need no shipped font, and keeps them when they do', () => {
    const regular = '    <link rel="preload" href="./assets/noto-sans-devanagari-400.woff2" as="font" type="font/woff2" crossorigin="">\n';
    const bold = '    <link rel="preload" href="./assets/noto-sans-devanagari-700.woff2" as="font" type="font/woff2" crossorigin="">\n';
    const built = PAGE.replace('<head>', `<head>\n    <link rel="modulepreload" crossorigin href="./assets/x.js">\n${regular}${bold}`);
    const latin = withFirstScreen(built, { html: '<p>as="font" <link rel="preload" as="font"></p>', lang: 'en-IN', scriptFonts: false });
    // Chromium would hold the first paint for them: "हिन्दी" on the language button comes a moment later.
    expect(latin).not.toContain('noto-sans-devanagari');
    expect(latin).toContain('<link rel="modulepreload" crossorigin href="./assets/x.js">');
    // The drawing's own markup is left as it is.
    expect(latin).toContain('<div id="root"><p>as="font" <link rel="preload" as="font"></p></div>');
    for (const page of [withFirstScreen(built, { html: '<p>कतार</p>', lang: 'hi-IN', scriptFonts: true }), withFirstScreen(built, { html: '<p>x</p>', lang: 'en-IN' })]) {
      expect(page).toContain(regular);
      expect(page).toContain(bold);
    }
  });

  it('is found beside the renderer\'s folder, as npm run build writes it', () => {
    expect(firstScreenBuild(join('/x', 'out', 'renderer'))).toBe(join('/x', 'out', 'first-screen', 'render.cjs'));
  });
});

describe('createFirstScreenDrawer', () => {
  it('draws with the host\'s answers', async () => {
    const file = drawing('good', `const r = await ask('orders.head', {}); return { html: '<p>' + r.value.command + '</p>', lang: 'en-IN' };`);
    const { log } = logged();
    await expect(createFirstScreenDrawer(file, ask, log).draw()).resolves.toEqual({ html: '<p>orders.head</p>', lang: 'en-IN', scriptFonts: true });
    const latin = drawing('latin', `return { html: '<p>Orders</p>', lang: 'en-IN', scriptFonts: false };`);
    await expect(createFirstScreenDrawer(latin, ask, log).draw()).resolves.toEqual({ html: '<p>Orders</p>', lang: 'en-IN', scriptFonts: false });
  });

  it('gives none, and says so in the log, when the build is missing', async () => {
    const { sink, log } = logged();
    const drawer = createFirstScreenDrawer(join(dir, 'missing.cjs'), ask, log);
    await drawer.warm();
    await expect(drawer.draw()).resolves.toBeNull();
    expect(sink.records.filter((r) => r.msg.includes('build is missing'))).toHaveLength(1);
  });

  it('gives none when drawing fails, logging the message only', async () => {
    const file = drawing('throws', `throw new Error('Invalid time value');`);
    const { sink, log } = logged();
    await expect(createFirstScreenDrawer(file, ask, log).draw()).resolves.toBeNull();
    expect(sink.records.some((r) => r.msg.includes('drawing it failed') && JSON.stringify(r).includes('Invalid time value'))).toBe(true);
  });

  it('gives none when drawing takes longer than the budget (400 ms unless given), without waiting for it', async () => {
    // A drawing that never ends: the page is served once the budget is spent, all the same.
    const file = drawing('slow', `await new Promise(() => undefined); return { html: 'late', lang: 'en' };`);
    const { sink, log } = logged();
    const time = manualTimers();
    let drawn: FirstScreen | null | undefined;
    const drawing100 = createFirstScreenDrawer(file, ask, log, 100, time.timers)
      .draw()
      .then((d) => (drawn = d));
    expect(time.pending()).toEqual([100]);
    time.advance(99);
    await new Promise((r) => setImmediate(r));
    expect(drawn).toBeUndefined();
    time.advance(1);
    await new Promise((r) => setImmediate(r));
    expect(drawn).toBeNull();
    await expect(drawing100).resolves.toBeNull();
    expect(sink.records.filter((r) => r.msg.includes('took longer than the budget'))).toHaveLength(1);
    // Without a budget given, the page waits FIRST_SCREEN_BUDGET_MS for it.
    void createFirstScreenDrawer(file, ask, log, undefined, time.timers).draw();
    expect(time.pending()).toEqual([FIRST_SCREEN_BUDGET_MS]);
    time.advance(FIRST_SCREEN_BUDGET_MS);
  });

  it('gives none for a module that is not a drawing, or a drawing of the wrong shape', async () => {
    const { log } = logged();
    const notOne = join(dir, 'not-one.cjs');
    writeFileSync(notOne, 'exports.something = 1;');
    await expect(createFirstScreenDrawer(notOne, ask, log).draw()).resolves.toBeNull();
    const wrong = drawing('wrong', `return { html: 42 };`);
    await expect(createFirstScreenDrawer(wrong, ask, log).draw()).resolves.toBeNull();
  });
});

describe("Electron's app:// handler with a drawing", () => {
  it('puts it in index.html only, and serves the page as built when there is none', async () => {
    const root = join(dir, 'renderer');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), PAGE);
    writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
    let drawn: { html: string; lang: string } | null = { html: '<div class="first-screen">queue</div>', lang: 'hi-IN' };
    const handler = createAppProtocolHandler(root, undefined, undefined, async () => drawn);
    const page = await (await handler(new Request('app://packdesk/'))).text();
    expect(page).toContain('<div id="root"><div class="first-screen">queue</div></div>');
    expect(page).toContain('<html lang="hi-IN">');
    expect(await (await handler(new Request('app://packdesk/assets/app.js'))).text()).toBe('console.log(1)');
    drawn = null;
    expect(await (await handler(new Request('app://packdesk/index.html'))).text()).toBe(PAGE);
  });
});

describe('loadFirstScreenBuild', () => {
  it('loads the drawing into the module cache for a drawer made later, and never throws', async () => {
    const file = join(dir, 'counted.cjs');
    writeFileSync(file, `globalThis.__firstScreenLoads = (globalThis.__firstScreenLoads ?? 0) + 1; exports.renderFirstScreen = async () => ({ html: 'x', lang: 'en' });`);
    const { loadFirstScreenBuild } = await import('../../../../src/main/core/ui');
    loadFirstScreenBuild(file);
    loadFirstScreenBuild(join(dir, 'nowhere.cjs'));
    const broken = join(dir, 'broken.cjs');
    writeFileSync(broken, 'this is not javascript (');
    expect(() => loadFirstScreenBuild(broken)).not.toThrow();
    const { log } = logged();
    await expect(createFirstScreenDrawer(file, ask, log).draw()).resolves.toEqual({ html: 'x', lang: 'en', scriptFonts: true });
    expect((globalThis as { __firstScreenLoads?: number }).__firstScreenLoads).toBe(1);
  });
});
