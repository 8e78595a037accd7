/**
 * The draft-and-save cycle every settings form shares: a draft of the settings it edits, a change
 * that clears the last result, and a save behind the manager PIN whose refusal is kept as how to
 * word it (SaveResultLine words it in the language shown, again after a switch). "Saved" is worded
 * by the form when shown (saving a new language changes the words at the same moment).
 */
import { useState, type FormEvent } from 'react';
import type { Settings } from '../../../../shared/ipc';
import { type Said, saidRefused } from '../../i18n/said';
import { command } from '../../intents';
import { useStatus } from '../../store/status';

export type SaveResult = { readonly ok: true } | (Said & { readonly ok: false });

/** Draft state for the settings `pick` chooses; `clean` tidies the draft just before it is sent. */
export function useSettingsDraft<E extends Partial<Settings>>(pin: string, pick: (s: Settings) => E, clean: (draft: E) => E = (d) => d) {
  const settings = useStatus((s) => s.settings);
  const setSettings = useStatus((s) => s.setSettings);
  const [draft, setDraft] = useState<E | null>(settings ? pick(settings) : null);
  const [result, setResult] = useState<SaveResult | null>(null);
  const [busy, setBusy] = useState(false);

  const change = (patch: Partial<E>): void => {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    setResult(null);
  };

  const save = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (busy || !draft) return;
    setBusy(true);
    const reply = await command('settings.update', { pin, patch: clean(draft) });
    setBusy(false);
    if (reply.ok) {
      setSettings(reply.value);
      setDraft(pick(reply.value));
      setResult({ ok: true });
    } else setResult(saidRefused(reply.problem));
  };

  return { draft, change, save, busy, result };
}
