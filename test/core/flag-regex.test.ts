// Regex flag conditions on the linear-time matcher (src/core/flag-engine/regex): the same answers
// as JavaScript's RegExp for the patterns flags use (realistic ones, and thousands of random small
// ones), patterns that backtrack catastrophically decided without hanging, and what the matcher
// refuses left to the server.
import { describe, expect, it } from 'vitest';
import { InconclusiveMatchError, matchProperty, type PropertyFilter } from '../../src/core/flag-engine';
import { testRegex, unsupportedRegex } from '../../src/core/flag-engine/regex/linear-regex';

const native = (pattern: string, value: string) => new RegExp(pattern).test(value);

/** Patterns of the kind PostHog flags hold: emails, domains, URLs, versions, ids, user agents. */
const REALISTIC: Array<[pattern: string, values: string[]]> = [
  ['@(acme|initech)\\.com$', ['ada@acme.com', 'bob@initech.com', 'eve@acme.com.evil', 'x@ACME.com']],
  ['^[\\w.+-]+@example\\.(com|org)$', ['a.b+c@example.com', 'a@example.net', '@example.com', 'a b@example.org']],
  [
    '^https?://(www\\.)?shop\\.test(/.*)?$',
    ['https://shop.test', 'http://www.shop.test/cart?x=1', 'https://shop.test.evil', 'ftp://shop.test'],
  ],
  ['^/(pricing|blog/[a-z0-9-]+)/?$', ['/pricing', '/blog/new-post/', '/blog/Bad_Post', '/pricingx']],
  ['^\\d+\\.\\d+\\.\\d+$', ['1.2.3', '10.0.12', '1.2', '1.2.3-beta']],
  ['^v?(1\\.[5-9]|[2-9]\\.\\d+)', ['1.5.0', 'v2.10', '1.4.9', 'v10.0']],
  [
    '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
    ['01890a5d-ac96-774b-bcce-b302099a8057', '01890a5d-ac96-774b-bcce-b302099a805', 'not-a-uuid'],
  ],
  ['Chrome/(1[0-9]{2}|[89][0-9])\\.', ['Mozilla/5.0 Chrome/120.0.0.0 Safari/537.36', 'Chrome/79.0', 'Chrome/99.1']],
  ['\\bbeta\\b', ['beta', 'in the beta program', 'betamax', 'alphabeta']],
  ['^[^@\\s]+@[^@\\s]+$', ['a@b', 'a @b', 'a@b@c', '']],
  ['^(?:\\+?1[-. ]?)?\\(?\\d{3}\\)?[-. ]?\\d{3}[-. ]?\\d{4}$', ['+1 (555) 123-4567', '555.123.4567', '12345']],
  ['^$', ['', ' ']],
  ['team-(?<name>[a-z]+)', ['team-core', 'team-', 'my-team-x']],
  ['[\\u00e9\\x41]', ['café', 'A', 'b']],
  ['a{2,}b{0,1}c?', ['aa', 'abc', 'aaab']],
  ['^\\s*$', ['   ', '\t\n', ' x ']],
  ['[.]\\*', ['.*', 'a*']],
  ['a{,2}|x{|}', ['a{,2}', 'x{', '}', 'x']],
];

describe('the same answers as RegExp#test', () => {
  it('for the patterns flags use', () => {
    for (const [pattern, values] of REALISTIC) {
      for (const value of values) expect([pattern, value, testRegex(pattern, value)]).toEqual([pattern, value, native(pattern, value)]);
    }
  });

  it('for 3,000 random small patterns over a, b and the operators, against random values', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const ATOMS = ['a', 'b', '.', '[ab]', '[^a]', '[a-b_]', '\\w', '\\W'];
    const atom = (depth: number): string => {
      const pick = random(depth > 2 ? ATOMS.length : ATOMS.length + 2);
      if (pick < ATOMS.length) return ATOMS[pick]!;
      return pick === ATOMS.length ? `(${pattern(depth + 1)})` : `(?:${pattern(depth + 1)})`;
    };
    const piece = (depth: number) =>
      random(10) === 0 ? ['\\b', '\\B', '^', '$'][random(4)]! : atom(depth) + ['', '*', '+', '?', '{2}', '{1,2}', '{0,}', '*?'][random(8)]!;
    const pattern = (depth: number): string => {
      const alternatives = Array.from({ length: 1 + random(2) }, () => Array.from({ length: 1 + random(3) }, () => piece(depth)).join(''));
      return alternatives.join('|');
    };
    for (let i = 0; i < 3_000; i++) {
      const anchored = ['', '^'][random(2)] + pattern(0) + ['', '$'][random(2)];
      const value = Array.from({ length: random(7) }, () => 'ab_'[random(3)]).join('');
      expect([anchored, value, testRegex(anchored, value)]).toEqual([anchored, value, native(anchored, value)]);
    }
  });
});

describe('patterns that backtrack catastrophically', () => {
  // Under a backtracking engine each of these takes hours to years; here they are decided.
  const cases: Array<[string, string, boolean]> = [
    ['^(a+)+$', 'a'.repeat(5_000) + '!', false],
    ['^(a+)+$', 'a'.repeat(5_000), true],
    ['^([\\w.]+)+@corp\\.com$', 'john.smith.'.repeat(500) + '@corp.co', false],
    ['^([\\w.]+)+@corp\\.com$', 'john.smith@corp.com', true],
    ['(x+x+)+y', 'x'.repeat(10_000), false],
    ['^(a|a)*$', 'a'.repeat(3_000) + 'b', false],
    ['^(\\w*)*\\d$', 'abc'.repeat(1_000) + '-', false],
  ];
  it('are decided, with the answer RegExp would give if it could finish', () => {
    for (const [pattern, value, expected] of cases) expect([pattern, testRegex(pattern, value)]).toEqual([pattern, expected]);
  });

  it('through matchProperty, as flag conditions (regex and not_regex)', () => {
    const filter = (operator: string): PropertyFilter => ({ key: 'email', operator, value: '^([\\w.]+)+@corp\\.com$', type: 'person' });
    const email = 'a.'.repeat(40) + '!';
    expect(matchProperty(filter('regex'), { email }, { knowsAllProperties: false })).toBe(false);
    expect(matchProperty(filter('not_regex'), { email }, { knowsAllProperties: false })).toBe(true);
  });
});

describe('what the matcher leaves to the server', () => {
  it('refuses backreferences, lookarounds and spellings engines read differently, saying which', () => {
    const refused: Array<[string, RegExp]> = [
      ['^(a)\\1$', /backreference/],
      ['^(?<x>a)\\k<x>$', /named backreference/],
      ['^(?!admin)', /lookahead or lookbehind/],
      ['(?<=@)corp', /lookahead or lookbehind/],
      ['\\p{L}+', /Unicode property/],
      ['[]a]', /empty class/],
      ['[a[b]', /nested class/],
      ['[a&&b]', /set operation/],
      ['\\e', /escape \\e/],
      ['\\w{5000}\\d{5000}x', /longer than/],
    ];
    for (const [pattern, why] of refused) {
      expect(unsupportedRegex(pattern)).toMatch(why);
      expect(() => testRegex(pattern, 'aa')).toThrow(InconclusiveMatchError);
    }
  });

  it('leaves a value too long for the step budget to the server, and calls an invalid pattern no match', () => {
    expect(() => testRegex('(a|b|c|d|e)*z', 'abcde'.repeat(100_000))).toThrow(/takes more than/);
    expect(testRegex('(unclosed', 'unclosed')).toBe('invalid');
    const filter: PropertyFilter = { key: 'x', operator: 'regex', value: '(unclosed', type: 'person' };
    expect(matchProperty(filter, { x: '(unclosed' }, { knowsAllProperties: false })).toBe(false);
  });
});
