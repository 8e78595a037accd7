import { describe, expect, it } from 'vitest';
import { createLogger, MemorySink, SecretRegistry } from '../../src/main/core/log';

describe('redacting logger', () => {
  it('masks registered secrets, bearer headers, form fields and secret keys', () => {
    const registry = new SecretRegistry();
    registry.add('super-secret-value');
    const sink = new MemorySink();
    const log = createLogger([sink], { registry, now: () => 0 });
    log.info('sending with O-Bearer abc.def-123 and client_secret=super-secret-value&x=1', {
      headers: { Authorization: 'O-Bearer abc.def-123' },
      body: 'grant_type=refresh_token&refresh_token=rt-999999&token=at-888888',
      nested: [{ clientSecret: 'x' }, 'the secret is super-secret-value'],
      error: new Error('failed for super-secret-value'),
    });
    const text = JSON.stringify(sink.records);
    expect(text).not.toContain('super-secret-value');
    expect(text).not.toContain('abc.def-123');
    expect(text).not.toContain('rt-999999');
    expect(text).not.toContain('at-888888');
    expect(text).toContain('[redacted]');
    expect(sink.records[0]?.msg).toContain('O-Bearer [redacted]');
  });

  it("masks a packer's personal PIN and its hash under their own keys (issue 24)", () => {
    const sink = new MemorySink();
    const log = createLogger([sink], { registry: new SecretRegistry(), now: () => 0 });
    log.warn('staff change refused', { packerPin: '583920', pin_hash: 'c2NyeXB0LWhhc2g=', name: 'Ravi' });
    const text = JSON.stringify(sink.records);
    expect(text).not.toContain('583920');
    expect(text).not.toContain('c2NyeXB0LWhhc2g=');
    expect(text).toContain('Ravi');
  });

  it('keeps ordinary fields and scopes child loggers', () => {
    const sink = new MemorySink();
    const log = createLogger([sink], { registry: new SecretRegistry(), scope: 'app' }).child('sync');
    log.warn('order ORD-1 held', { orderId: 'ORD-1', attempts: 3 });
    expect(sink.records[0]).toMatchObject({ scope: 'app.sync', level: 'warn', fields: { orderId: 'ORD-1', attempts: 3 } });
  });

  it('drops records below the minimum level', () => {
    const sink = new MemorySink();
    createLogger([sink], { registry: new SecretRegistry() }).debug('noise');
    expect(sink.records).toHaveLength(0);
  });
});
