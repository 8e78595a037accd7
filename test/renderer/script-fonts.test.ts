/**
 * Whether a drawn first screen needs the shipped script fonts preloaded: only when its words, the
 * language buttons (each language's name in its own script) aside, have Devanagari.
 */
import { describe, expect, it } from 'vitest';
import { withoutLanguageButtons } from '../../src/renderer/src/firstScreen/render';
import { needsScriptFonts } from '../../src/renderer/src/i18n/fonts';

const BUTTON =
  '<button type="button" class="nav-button language-button" lang="hi-IN" data-testid="language-hi" title="Show the terminal in this language until Packdesk restarts"><span class="language-name">हिन्दी</span></button>';

describe('the drawn first screen and the script fonts', () => {
  it('needs them for Devanagari words, including signs Devanagari shares, but not for ₹ or symbols', () => {
    expect(needsScriptFonts('सभी 5,000')).toBe(true);
    expect(needsScriptFonts('Paid । done')).toBe(true);
    expect(needsScriptFonts('Orders (5,000) — ₹1,240.00 ▣ ℞ ✔ Asha’s')).toBe(false);
  });

  it('does not count the language buttons, and counts a customer named in Devanagari', () => {
    const english = `<nav><button type="button" class="nav-button">Orders</button></nav><div class="language-switch">${BUTTON}</div>`;
    expect(needsScriptFonts(withoutLanguageButtons(english))).toBe(false);
    expect(withoutLanguageButtons(english)).toContain('Orders');
    const customer = `${english}<span class="row-customer">आशा</span>`;
    expect(needsScriptFonts(withoutLanguageButtons(customer))).toBe(true);
  });
});
