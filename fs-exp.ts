import { mkdtempSync, writeFileSync, rmSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startWebHarness } from './src/web';
const med = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]!; };
const p95 = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return s[Math.ceil(0.95 * s.length) - 1]!; };
(async () => {
  const h = await startWebHarness({ dataDir: mkdtempSync(join(tmpdir(), 'fs-')), host: { sandboxOptions: { orderCount: 5000 } } });
  await h.host.handle('pin.set', { newPin: '2468' });
  for (;;) { const s: any = await h.host.handle('intake.status', {}); if (s.value?.lastCompleteAt) break; await new Promise((r) => setTimeout(r, 200)); }
  const origin = new URL(h.url).origin;
  const html = (await (await fetch(origin + '/')).text());
  const cssName = readdirSync('out/renderer/assets').find((f) => /^index-.*\.css$/.test(f))!;
  const css = readFileSync(`out/renderer/assets/${cssName}`, 'utf8');
  writeFileSync('out/renderer/assets/exp-nocv.css', css.replace(/content-visibility:auto;contain-intrinsic-size:auto 80px;?/g, ''));
  console.log('cv in css', css.includes('content-visibility:auto'));
  const cut = (n: number) => { let i = 0; return html.replace(/<div id="order-row-[\s\S]*?(?=<div id="order-row-|<\/div><\/div><\/main>)/g, (m) => (i++ < n ? m : '')); };
  const noScripts = (h: string) => h.replace(/<script defer src="[^"]*bridge[^"]*"><\/script>/, '').replace(/<script type="module"[^>]*><\/script>/, '').replace(/<link rel="modulepreload"[^>]*>/g, '');
  const noCss = (h: string) => h.replace(/<link rel="stylesheet"[^>]*>/, '');
  const variants: Record<string, string> = {
    full: html,
    nopreloads: html.replace(/<link rel="modulepreload"[^>]*>/g, ''),
    nostart: html.replace(/<link rel="modulepreload" crossorigin="" href="[^"]*start-[^"]*">/, ''),
    floor: '<!doctype html><html><head><title>x</title></head><body><h1>Floor</h1><p>trivial</p></body></html>',
  };
  console.log('variants differ', variants.nopreloads !== html, variants.nostart !== html);
  for (const [k, v] of Object.entries(variants)) writeFileSync(`out/renderer/exp-${k}.html`, v);
  console.log('rows', (cut(8).match(/data-testid="order-row"/g) ?? []).length, (html.match(/data-testid="order-row"/g) ?? []).length);
  const dir = mkdtempSync(join(tmpdir(), 'fsp-'));
  const ctx = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'], viewport: { width: 1366, height: 768 } });
  await ctx.addInitScript({ content: `(() => { window.__r = {}; new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') window.__r.fcp = e.startTime; }).observe({ type: 'paint', buffered: true }); const o = new MutationObserver(() => { if (!window.__r.dom && document.querySelector('[data-testid="order-row"], h1')) { window.__r.dom = performance.now(); requestAnimationFrame(() => setTimeout(() => window.__r.free = performance.now(), 0)); } }); o.observe(document, { childList: true, subtree: true }); })()` });
  const out: Record<string, { dom: number[]; fcp: number[]; free: number[] }> = {};
  for (let round = 0; round < 17; round++) {
    for (const k of Object.keys(variants)) {
      const page = await ctx.newPage();
      await page.goto(`${origin}/exp-${k}.html`, { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as any).__r.fcp && (window as any).__r.free, null, { timeout: 20000 });
      const r = await page.evaluate(() => (window as any).__r);
      if (round > 0) { (out[k] ??= { dom: [], fcp: [], free: [] }).dom.push(r.dom); out[k]!.fcp.push(r.fcp); out[k]!.free.push(r.free); }
      await page.waitForTimeout(k !== 'floor' ? 1500 : 300);
      await page.close();
    }
  }
  for (const [k, v] of Object.entries(out)) console.log(k.padEnd(15), 'dom', med(v.dom).toFixed(0), p95(v.dom).toFixed(0), ' free', med(v.free).toFixed(0), p95(v.free).toFixed(0), ' fcp', med(v.fcp).toFixed(0), p95(v.fcp).toFixed(0));
  await ctx.close();
  await h.close();
  for (const k of Object.keys(variants)) rmSync(`out/renderer/exp-${k}.html`);
  rmSync('out/renderer/assets/exp-nocv.css');
})();
