/** Small node:http helpers: bounded body reading and JSON answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer } from './answers';

/** Requests larger than this are refused (413): an update request is a few hundred bytes. */
export const MAX_BODY_BYTES = 1024 * 1024;

export type BodyRead = { ok: true; text: string } | { ok: false; reason: 'too-large' | 'aborted' };

/**
 * Reads a request body as UTF-8, up to `limit` bytes. A larger body is drained and discarded, so
 * the client finishes sending and reads the 413 instead of seeing its upload cut mid-write.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyRead): void => {
      if (done) return;
      done = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on('end', () => finish(size > limit ? { ok: false, reason: 'too-large' } : { ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => finish({ ok: false, reason: 'aborted' }));
    req.on('close', () => finish({ ok: false, reason: 'aborted' }));
  });
}

/** Sends an answer unless the client has already gone. */
export function send(res: ServerResponse, answer: Answer, extraHeaders: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(answer.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(answer.body)),
    ...extraHeaders,
    ...answer.headers,
  });
  res.end(answer.body);
}

/** A JSON answer from any serialisable value. */
export function json(status: number, value: unknown, headers?: Record<string, string>): Answer {
  return headers ? { status, body: JSON.stringify(value), headers } : { status, body: JSON.stringify(value) };
}

/** Parses JSON text without throwing. */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : 'invalid JSON' };
  }
}
