/**
 * Product barcodes (the EAN/UPC on a pack): EAN-13, EAN-8 and UPC-A, told by their length and
 * check digit. Such a code names a product, never an invoice, so it is never offered or recorded
 * as one. A 12- or 13-digit number that fails the check digit is no barcode, and may be an invoice.
 */

const GTIN_LENGTHS = new Set([8, 12, 13]);

/** True when `code` is an EAN-13, EAN-8 or UPC-A with a valid check digit. */
export function isProductBarcode(code: string): boolean {
  const digits = code.trim();
  if (!/^\d+$/.test(digits) || !GTIN_LENGTHS.has(digits.length)) return false;
  // GS1: from the digit left of the check digit leftwards, weights 3, 1, 3, 1…
  let sum = 0;
  for (let i = digits.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight) sum += Number(digits[i]) * weight;
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}
