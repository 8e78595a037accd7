/** Telling an order id from any other code (an invoice, a product barcode) by the settings' pattern. */
import { DEFAULT_ORDER_ID_PATTERN } from '../../../shared/orderIdPattern';
import { orderIdProblem } from '../../../shared/protocol/orderId';

/** A test for order ids from a pattern; a pattern that does not compile falls back to the default. */
export function orderIdMatcher(pattern: string): (code: string) => boolean {
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch {
    re = new RegExp(DEFAULT_ORDER_ID_PATTERN);
  }
  // However wide a manager's pattern, a code that breaks the one id rule is never an order id.
  return (code) => orderIdProblem(code.trim()) === null && re.test(code.trim());
}
