/**
 * Words for what the engine sends as codes: refusals and problems (by their `code`, filled in with
 * their `values`), sync notices, reason codes, next steps and order states. The engine's English
 * is the fallback for a code no translation file knows, never the only form.
 */
import type { TFunction } from 'i18next';
import type { Problem } from '../../../shared/result';
import type { Words } from '../../../shared/ipc';
import type { StepKey } from '../../../shared/fulfilment/states';
import { reasonKey } from '../../../shared/protocol/reasons';
import { formatSpan } from '../format/time';

/** The step names on buttons, pills and filters. */
export const STEP_LABEL_KEY: Readonly<Record<StepKey, string>> = {
  ACCEPT: 'common:steps.label.ACCEPT',
  PACKING: 'common:steps.label.PACKING',
  PACKED: 'common:steps.label.PACKED',
  OUT_FOR_DELIVERY: 'common:steps.label.OUT_FOR_DELIVERY',
  DELIVERED: 'common:steps.label.DELIVERED',
  COMPLETE: 'common:steps.label.COMPLETE',
};

/** Fulfilment and order states as a packer says them (history rows, refusals); PENDING is a fresh fulfilment as the training sandbox gives it. */
export const STATE_KEY: Readonly<Record<string, string>> = {
  PENDING: 'common:states.PENDING',
  PACKING: 'common:states.PACKING',
  PACKED: 'common:states.PACKED',
  SEARCHING_FOR_AGENT: 'common:states.SEARCHING_FOR_AGENT',
  AGENT_ASSIGNED: 'common:states.AGENT_ASSIGNED',
  OUT_FOR_DELIVERY: 'common:states.OUT_FOR_DELIVERY',
  DELIVERED: 'common:states.DELIVERED',
  CREATED: 'common:states.CREATED',
  ACCEPTED: 'common:states.ACCEPTED',
  IN_PROGRESS: 'common:states.IN_PROGRESS',
  COMPLETED: 'common:states.COMPLETED',
  CANCELLED: 'common:states.CANCELLED',
};

/** A state word for any state string the service sends; unknown ones read as plain words. */
export function stateWord(t: TFunction, state: string): string {
  const normal = state.trim().toUpperCase().replace(/[\s-]+/g, '_');
  const key = STATE_KEY[normal];
  const plain = state.replace(/_/g, ' ').toLowerCase();
  const fallback = plain.charAt(0).toUpperCase() + plain.slice(1);
  return key ? t(key, { defaultValue: fallback }) : fallback;
}

/** A reason's words by its code (codes the service adds later show as sent). */
export function reasonWords(t: TFunction, code: string, english?: string): string {
  return t(reasonKey(code), { defaultValue: english ?? code });
}

/** Environments by name, as a manager reads them. */
export const ENVIRONMENT_NAME: Readonly<Record<'training' | 'staging' | 'production', string>> = {
  training: 'settings:connection.envName.training',
  staging: 'settings:connection.envName.staging',
  production: 'settings:connection.envName.production',
};

/** Values with any state code also given as words (`stateWord`), for sentences that name a step. */
function withWords(t: TFunction, values: Readonly<Record<string, string | number>> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  if (typeof values?.state === 'string') out.stateWord = stateWord(t, values.state);
  if (typeof values?.reason === 'string') out.reasonWord = reasonWords(t, values.reason);
  if (typeof values?.thresholdMs === 'number') out.span = formatSpan(values.thresholdMs, t);
  if (typeof values?.seconds === 'number') out.wait = formatSpan(values.seconds * 1000, t);
  if (typeof values?.offsetMs === 'number') out.offset = formatSpan(values.offsetMs, t);
  if (values?.address === 'token server') out.address = t('settings:connection.tokenServer');
  if (values?.address === 'order service') out.address = t('settings:connection.orderService');
  const environment = values?.environment;
  if (environment === 'training' || environment === 'staging' || environment === 'production')
    out.environment = t(ENVIRONMENT_NAME[environment]);
  return out;
}

/**
 * How to word something shown for a while (the notice line, a refusal in a dialog): called with the
 * `t` and Intl locale of the language shown each time it is drawn, so words already on screen follow
 * a language switch. Kept instead of the words themselves.
 */
export type Wording = (t: TFunction, locale: string) => string;

/** A problem or refusal from the engine in the staff's language; its English when the code is unknown. */
export function problemWords(t: TFunction, problem: Pick<Problem, 'message' | 'code' | 'values'>): string {
  if (!problem.code) return problem.message;
  return t(`problems:${problem.code}`, { ...withWords(t, problem.values), defaultValue: problem.message });
}

/**
 * How to word a problem or refusal from the engine, for a screen to keep in place of the words:
 * worded by `problemWords` each time it is drawn, so it follows a language switch.
 */
export function problemWording(problem: Pick<Problem, 'message' | 'code' | 'values'>): Wording {
  return (t) => problemWords(t, problem);
}

/** The engine's sync notice in the staff's language; its English sentence when the code is unknown. */
export function noticeWords(t: TFunction, notice: Words | null | undefined, english: string | null): string | null {
  if (!notice) return english;
  return t(`notices:${notice.code}`, { ...withWords(t, notice.values), defaultValue: english ?? '' });
}
