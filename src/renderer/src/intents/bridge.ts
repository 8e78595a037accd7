/**
 * The bridge to the engine: a command sent and its answer, and a refusal said to the packer (buzz,
 * shake, words). Every intent goes through here; nothing here knows a screen.
 */
import type { CommandName, CommandPayload, CommandResult, Reply } from '../../../shared/ipc';
import type { Problem } from '../../../shared/result';
import { bridge } from '../api';
import { playRefusal } from '../feedback/sound';
import { problemWording, type Wording } from '../i18n/words';
import { useStatus } from '../store/status';
import { useUi } from '../store/ui';

/** A problem the bridge itself hit (the engine is gone, the socket closed): never a stack trace. */
async function call<C extends CommandName>(command: C, payload: CommandPayload<C>): Promise<Reply<CommandResult<C>>> {
  try {
    return await bridge().invoke(command, payload);
  } catch {
    return {
      ok: false,
      problem: { kind: 'transient', message: 'The terminal engine did not answer. Try again in a moment.', code: 'ENGINE_SILENT' },
    };
  }
}

export function soundsOn(): boolean {
  return useStatus.getState().settings?.sounds ?? true;
}

/**
 * Plays the refusal buzz, shakes the screen and shows why: how to word it, or a problem (worded by
 * its code); the notice line words either in the language shown.
 */
export function refuse(why: Wording | Problem): void {
  if (soundsOn()) playRefusal();
  useUi.getState().buzz();
  useUi.getState().say('error', typeof why === 'function' ? why : problemWording(why));
}

/** Runs any other command, for the settings screens; problems come back as values. */
export function command<C extends CommandName>(name: C, payload: CommandPayload<C>): Promise<Reply<CommandResult<C>>> {
  return call(name, payload);
}
