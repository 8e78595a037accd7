/** Telling an order id from any other code (an invoice, a product barcode) by the settings' pattern. */
import { DEFAULT_ORDER_ID_PATTERN } from '../../../shared/orderIdPattern';

/** A test for order ids from a pattern; a pattern that does not compile falls back to the default. */
export function orderIdMatcher(pattern: string): (code: string) => boolean {
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch {
    re = new RegExp(DEFAULT_ORDER_ID_PATTERN);
  }
  return (code) => re.test(code.trim());
}
