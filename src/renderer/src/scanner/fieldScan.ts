/**
 * Scans that land in a text field. The scanner's keys have already gone into the field by the
 * time its Enter shows it was a scan, so the listener takes them out again (back to what the field
 * held before the burst) and hands the field the whole code in one event. A field that takes
 * scans (invoice, order number) acts on that code itself: never on whatever the field holds, which
 * may be half of a second burst, or the end of one after the field was cleared.
 */
import { useEffect, type RefObject } from 'react';

/** The event a field receives with a scanned code; its handler calls preventDefault() to take it. */
export const FIELD_SCAN_EVENT = 'packdesk:scan';

export type FieldScanEvent = CustomEvent<{ readonly code: string }>;

/** A text field keys can be typed into, or null. */
export function textFieldOf(target: EventTarget | null): HTMLInputElement | HTMLTextAreaElement | null {
  if (target instanceof HTMLTextAreaElement) return target;
  if (target instanceof HTMLInputElement) {
    const notText = ['button', 'submit', 'reset', 'checkbox', 'radio', 'range', 'color', 'file', 'image'];
    return notText.includes(target.type) ? null : target;
  }
  return null;
}

/**
 * Sets a field's value the way typing would, so React's onChange hears of it (React tracks the
 * value through the element's own setter, so assigning `.value` alone would be missed).
 */
export function setFieldValue(field: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  if (field.value === value) return;
  const proto = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/** Offers a scanned code to a field; true when the field took it. */
export function offerScanToField(field: HTMLElement, code: string): boolean {
  const event: FieldScanEvent = new CustomEvent(FIELD_SCAN_EVENT, { detail: { code }, cancelable: true });
  return !field.dispatchEvent(event);
}

/** Makes a field take scans: `onScan` gets each scanned code whole (repeats are already dropped). */
export function useFieldScan(ref: RefObject<HTMLElement | null>, onScan: (code: string) => void): void {
  useEffect(() => {
    const field = ref.current;
    if (!field) return;
    const listener = (e: Event) => {
      e.preventDefault();
      onScan((e as FieldScanEvent).detail.code);
    };
    field.addEventListener(FIELD_SCAN_EVENT, listener);
    return () => field.removeEventListener(FIELD_SCAN_EVENT, listener);
  }, [ref, onScan]);
}
