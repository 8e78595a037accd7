/** Product barcodes are told from invoice numbers by their length and GS1 check digit. */
import { describe, expect, it } from 'vitest';
import { isProductBarcode } from '../../src/renderer/src/scanner/productCode';

describe('isProductBarcode', () => {
  it('knows EAN-13, EAN-8 and UPC-A codes by their check digit', () => {
    expect(isProductBarcode('8901030865275')).toBe(true); // EAN-13 on a pack (India, 890)
    expect(isProductBarcode('4006381333931')).toBe(true); // EAN-13
    expect(isProductBarcode('96385074')).toBe(true); // EAN-8
    expect(isProductBarcode('036000291452')).toBe(true); // UPC-A
    expect(isProductBarcode(' 8901030865275 ')).toBe(true);
  });

  it('leaves invoices, order ids and numbers with a wrong check digit alone', () => {
    // The example: its check digit would be 5, so no scanner reads it (they check it).
    expect(isProductBarcode('8901030865278')).toBe(false);
    expect(isProductBarcode('036000291453')).toBe(false);
    expect(isProductBarcode('INV-BLR-2611-0042')).toBe(false);
    expect(isProductBarcode('ORD-3586689')).toBe(false);
    expect(isProductBarcode('3586689')).toBe(false); // seven digits: no product code has seven
    expect(isProductBarcode('89010308652780')).toBe(false);
    expect(isProductBarcode('')).toBe(false);
  });
});
