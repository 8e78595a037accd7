/** The programmatic API of @doyensec/electronegativity 1.10 (it ships no types); results are parsed with zod anyway. */
declare module '@doyensec/electronegativity' {
  interface RunOptions {
    input: string;
    isRelative?: boolean;
    electronVersionOverride?: string;
    excludeFromScan?: string[];
    customScan?: string[];
    severitySet?: string;
    confidenceSet?: string;
    parserPlugins?: string[];
  }
  export default function run(options: RunOptions, forCli?: boolean): Promise<unknown>;
}
