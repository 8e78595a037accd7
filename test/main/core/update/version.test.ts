import { describe, expect, it } from 'vitest';
import { compareVersions, parseVersion } from '../../../../src/main/core/update';

describe('compareVersions', () => {
  it('orders by semver precedence', () => {
    // The chain from the semver specification, plus releases around it.
    const chain = ['0.9.9', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.1', '1.1.0', '1.10.0', '2.0.0'];
    for (let i = 0; i < chain.length; i++) {
      for (let j = 0; j < chain.length; j++) {
        expect(compareVersions(chain[i]!, chain[j]!), `${chain[i]} vs ${chain[j]}`).toBe(Math.sign(i - j));
      }
    }
  });

  it('ignores build metadata and a leading v', () => {
    expect(compareVersions('v1.2.3', '1.2.3+build.7')).toBe(0);
  });

  it('returns null for anything that is not a version', () => {
    expect(compareVersions('1.2', '1.2.0')).toBeNull();
    expect(compareVersions('1.2.0', '')).toBeNull();
    expect(compareVersions('01.2.0', '1.2.0')).toBeNull();
    expect(parseVersion('1.2.3-beta.2')).toEqual({ major: 1, minor: 2, patch: 3, prerelease: ['beta', 2] });
  });
});
