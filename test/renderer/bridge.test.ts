import { describe, expect, it } from 'vitest';
import { findBridge } from '../../src/renderer/src/api';

describe('finding the bridge', () => {
  it('takes an object with invoke and on', () => {
    const api = { invoke: () => Promise.resolve({ ok: true, value: null }), on: () => () => undefined };
    expect(findBridge({ packdesk: api })).toBe(api);
  });

  it('says there is none when the shell put nothing, or something unusable, on window', () => {
    expect(findBridge({})).toBeNull();
    expect(findBridge(null)).toBeNull();
    expect(findBridge({ packdesk: { invoke: 'no' } })).toBeNull();
  });
});
