/**
 * The named rate families: rates whose names are the eval set's, not evalrig's (each check, each
 * message check). benchmark.json keeps a family beside `measures` under its key, per group and
 * per comparison, and a verdict names one of its rates `<key>.<name>`. One table, so that the
 * sums, the comparisons, the pages and the verdict lines treat every family alike.
 */
import { RateAccumulator, type RateStats } from './stats.js';

/** The families, in the order the pages list them. */
export const RATE_FAMILIES = ['checks', 'message_checks'] as const;

export type RateFamily = (typeof RATE_FAMILIES)[number];

/** Phrases of the built-in message checks; a user's check reads "passes message check <name>". */
export const MESSAGE_CHECK_PHRASES: Readonly<Record<string, string>> = {
  no_missing_gh: 'never says gh is missing or unauthenticated',
};

/** How a message check is named to a reader. */
export function messageCheckLabel(name: string): string {
  return `message check ${name}`;
}

/** How a family's rate is named in a table, and what it says a condition does in a verdict. */
const WORDS: Record<
  RateFamily,
  { readonly label: (name: string) => string; readonly phrase: (name: string) => string }
> = {
  checks: { label: (name) => `check ${name}`, phrase: (name) => `passes check ${name}` },
  message_checks: {
    label: messageCheckLabel,
    phrase: (name) => MESSAGE_CHECK_PHRASES[name] ?? `passes message check ${name}`,
  },
};

/** A group's rates of each family, as benchmark.json holds them (older files lack some). */
export type FamilyRates = Partial<Record<RateFamily, Readonly<Record<string, RateStats>>>>;

/** One named rate: its family, its name, how benchmark.json and the verdicts spell it, its label. */
export interface NamedRate {
  readonly family: RateFamily;
  readonly name: string;
  readonly measure: string;
  readonly label: string;
}

function named(family: RateFamily, name: string): NamedRate {
  return { family, name, measure: `${family}.${name}`, label: WORDS[family].label(name) };
}

/** Every named rate some groups have: family by family, names in the order first seen. */
export function namedRates(groups: readonly FamilyRates[]): NamedRate[] {
  return RATE_FAMILIES.flatMap((family) => {
    const names = new Set<string>();
    for (const g of groups) for (const name of Object.keys(g[family] ?? {})) names.add(name);
    return [...names].map((name) => named(family, name));
  });
}

/** A rate no run measured. */
const NO_RUNS: RateStats = { rate: null, successes: 0, n: 0, ci95: null };

/** A group's value of one named rate; one it lacks is unknown (n 0), never 0%. */
export function rateOf(group: FamilyRates, r: Pick<NamedRate, 'family' | 'name'>): RateStats {
  return group[r.family]?.[r.name] ?? NO_RUNS;
}

/** Each named difference of a comparison, with its rate's names, family by family. */
export function namedDifferences<D>(
  cmp: Partial<Record<RateFamily, Readonly<Record<string, D>>>>,
): Array<NamedRate & { readonly difference: D }> {
  return RATE_FAMILIES.flatMap((family) =>
    Object.entries(cmp[family] ?? {}).map(([name, difference]) => ({
      ...named(family, name),
      difference,
    })),
  );
}

/** What a family's rate says a condition does, or undefined for a measure of no family. */
export function familyPhrase(measure: string): string | undefined {
  const family = RATE_FAMILIES.find((f) => measure.startsWith(`${f}.`));
  return family ? WORDS[family].phrase(measure.slice(family.length + 1)) : undefined;
}

/** Running sums of one family in one group: a rate per name, in the order first seen. */
export class NamedRateAccumulator {
  private readonly byName = new Map<string, RateAccumulator>();

  add(name: string, passed: boolean | null): void {
    let acc = this.byName.get(name);
    if (!acc) this.byName.set(name, (acc = new RateAccumulator()));
    acc.add(passed);
  }

  stats(): Record<string, RateStats> {
    return Object.fromEntries([...this.byName].map(([name, acc]) => [name, acc.stats()]));
  }
}
