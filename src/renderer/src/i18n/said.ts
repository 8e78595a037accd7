/**
 * A message a screen or panel keeps beside what it is about (a save's outcome, a refusal): whether
 * it went well, and how to word it. Never the words themselves: the component words it with its
 * own `useWords()` when it draws it, so it reads in the language shown, again after a switch,
 * in the same element (a switch is not announced as a new message).
 */
import type { Problem } from '../../../shared/result';
import { problemWording, type Wording } from './words';

export interface Said {
  readonly ok: boolean;
  readonly words: Wording;
}

/** Something went as asked: a confirmation, worded when shown. */
export function saidOk(words: Wording): Said & { readonly ok: true } {
  return { ok: true, words };
}

/** Something did not go as asked, in our own words. */
export function saidNotOk(words: Wording): Said & { readonly ok: false } {
  return { ok: false, words };
}

/** The engine refused or could not: its problem, worded by its code when shown. */
export function saidRefused(problem: Pick<Problem, 'message' | 'code' | 'values'>): Said & { readonly ok: false } {
  return saidNotOk(problemWording(problem));
}
