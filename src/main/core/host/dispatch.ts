/**
 * The one door from outside (Electron IPC, the harness WebSocket) into the host: the command name
 * is checked, the payload parsed with the contract's zod schema, the handler run, and its result
 * checked against the contract before it leaves. Nothing here throws; every failure is a Reply
 * with a Problem a person can read, and nothing secret or internal (stack, path, value) leaks.
 */
import type { z } from 'zod';
import { COMMANDS, isCommandName, type CommandName, type CommandResult, type Reply } from '../../../shared/ipc';
import type { Problem, Result } from '../../../shared/result';
import { secrets, type Logger } from '../log';

/** A command's handler receives the parsed payload and answers a Result; it may throw (caught here). */
export type Handler<C extends CommandName> = (payload: z.output<(typeof COMMANDS)[C]['payload']>) => Promise<Result<CommandResult<C>>>;
/** One handler for every command of the contract (the type makes a missing one a compile error). */
export type HandlerTable = { readonly [C in CommandName]: Handler<C> };

export type Dispatch = (command: unknown, payload: unknown) => Promise<Reply<unknown>>;

/** What an unexpected failure looks like to the person at the terminal. */
export const INTERNAL_PROBLEM: Problem = {
  kind: 'transient',
  message: 'Something went wrong on the terminal; nothing was lost. Try again, and if it keeps happening export a support bundle.',
  code: 'INTERNAL',
};

/** Builds the validating dispatcher over a handler table. */
export function createDispatcher(table: HandlerTable, log: Logger): Dispatch {
  return async (command, payload) => {
    if (!isCommandName(command)) {
      log.warn('refused an unknown command', { command: typeof command === 'string' ? command.slice(0, 64) : typeof command });
      return { ok: false, problem: { kind: 'invalid', message: 'The terminal does not know this request.', code: 'UNKNOWN_COMMAND' } };
    }
    const spec = COMMANDS[command];
    const parsed = spec.payload.safeParse(payload);
    if (!parsed.success) {
      const problem = payloadProblem(command, parsed.error);
      log.warn('refused a malformed request', { command, problem: problem.message });
      return { ok: false, problem };
    }
    let result: Result<unknown>;
    try {
      const handler = table[command] as (p: unknown) => Promise<Result<unknown>>;
      result = await handler(parsed.data);
    } catch (err) {
      log.error('a request failed unexpectedly', { command, error: describeError(err) });
      return { ok: false, problem: INTERNAL_PROBLEM };
    }
    if (!result.ok) return { ok: false, problem: cleanProblem(result.problem) };
    const checked = spec.result.safeParse(result.value);
    if (!checked.success) {
      log.error('a handler answered outside the contract', { command, issue: checked.error.issues[0]?.message ?? 'invalid' });
      return { ok: false, problem: INTERNAL_PROBLEM };
    }
    return { ok: true, value: checked.data };
  };
}

/** "The request to X was not valid: field: reason" without echoing the value (it may be a secret). */
function payloadProblem(command: CommandName, error: z.ZodError): Problem {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  const why = issue?.code === 'unrecognized_keys' ? `unexpected field(s) ${issue.keys.join(', ')}` : (issue?.message ?? 'invalid');
  return { kind: 'invalid', message: secrets.redactText(`The request ${command} was not valid: ${where}${why}.`), code: 'INVALID_REQUEST' };
}

/** Problems pass through redaction too: a service message could quote a token back. */
function cleanProblem(problem: Problem): Problem {
  const message = secrets.redactText(problem.message);
  if (problem.code === undefined) return { kind: problem.kind, message };
  if (problem.values === undefined) return { kind: problem.kind, message, code: problem.code };
  // The values fill in the code's sentence on screen (an order id, a count): without them it reads "{{orderId}}".
  const values = Object.fromEntries(Object.entries(problem.values).map(([k, v]) => [k, typeof v === 'string' ? secrets.redactText(v) : v]));
  return { kind: problem.kind, message, code: problem.code, values };
}

/** Error name and message for the log; never the stack (it names files and may quote arguments). */
function describeError(err: unknown): { name: string; message: string } {
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: typeof err, message: String(err).slice(0, 200) };
}
