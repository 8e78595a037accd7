/**
 * Semantic version comparison for update decisions. Kept here (not the `semver` package) because
 * the engine must not depend on electron-updater's transitive packages, and the rules are small.
 */

export interface ParsedVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** Pre-release identifiers, e.g. ['beta', 2] for 1.4.0-beta.2; empty for a release. */
  readonly prerelease: readonly (string | number)[];
}

const VERSION = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Parses `1.2.3`, `1.2.3-beta.1` or `v1.2.3+build`; null when it is not a semantic version. */
export function parseVersion(text: string): ParsedVersion | null {
  const m = VERSION.exec(text.trim());
  if (!m) return null;
  const prerelease = m[4] ? m[4].split('.').map((id) => (/^\d+$/.test(id) ? Number(id) : id)) : [];
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), prerelease };
}

/** Compares two versions by semver precedence: -1, 0 or 1; null when either does not parse. */
export function compareVersions(a: string, b: string): -1 | 0 | 1 | null {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (!x || !y) return null;
  for (const key of ['major', 'minor', 'patch'] as const) {
    if (x[key] !== y[key]) return x[key] < y[key] ? -1 : 1;
  }
  // A release ranks above any of its pre-releases (1.0.0-beta < 1.0.0).
  if (x.prerelease.length === 0 || y.prerelease.length === 0) {
    if (x.prerelease.length === y.prerelease.length) return 0;
    return x.prerelease.length === 0 ? 1 : -1;
  }
  const n = Math.max(x.prerelease.length, y.prerelease.length);
  for (let i = 0; i < n; i++) {
    const p = x.prerelease[i];
    const q = y.prerelease[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    // Numeric identifiers rank below alphanumeric ones; like kinds compare naturally.
    if (typeof p === 'number' && typeof q === 'string') return -1;
    if (typeof p === 'string' && typeof q === 'number') return 1;
    return p < q ? -1 : 1;
  }
  return 0;
}
