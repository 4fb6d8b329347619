/**
 * Exact decimal arithmetic for money, quantities and rates.
 *
 * A value is a BigInt count of units at a decimal scale (`12.50` is `{ units: 1250n, scale: 2 }`).
 * Money never goes through binary floating point: `0.1 + 0.2` must be `0.30`, and the tax
 * authority rounds half up on the third decimal, which `Number#toFixed` cannot promise.
 */
export type TDecimal = { readonly units: bigint; readonly scale: number };

/** Plain decimal text: optional minus, digits, optional fraction. No exponent, no separators, no `+`. */
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/** Whether `text` is strict decimal text, the test {@link parseDecimal} applies, without building the value. */
export function isDecimalText(text: string): boolean {
  return DECIMAL_TEXT.test(text);
}

/**
 * Reads strict decimal text (`"1000.00"`, `"-3"`, `"0.5"`). Returns null for anything else:
 * thousands separators (`"1,000.00"`), letters, empty text, exponents (`"1e3"`), a leading `+`
 * or `.`, surrounding spaces. Rule 11: values are never cleaned nor read as 0.
 */
export function parseDecimal(text: string): TDecimal | null {
  if (!DECIMAL_TEXT.test(text)) return null;
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  const dot = body.indexOf('.');
  const integerPart = dot === -1 ? body : body.slice(0, dot);
  const fractionPart = dot === -1 ? '' : body.slice(dot + 1);
  const units = BigInt(integerPart + fractionPart);
  return { units: negative ? -units : units, scale: fractionPart.length };
}

/** Parses text the caller already knows is valid; a failure is a programmer error. */
export function decimal(text: string): TDecimal {
  const value = parseDecimal(text);
  if (value === null) throw new Error(`Not a decimal literal: ${JSON.stringify(text)}`);
  return value;
}

/** A whole number as a decimal of scale 0. */
export function decimalFromInteger(value: number | bigint): TDecimal {
  if (typeof value === 'number' && !Number.isSafeInteger(value))
    throw new Error(`Not a safe integer: ${value}`);
  return { units: BigInt(value), scale: 0 };
}

/** Zero at scale 0. */
export const ZERO: TDecimal = { units: 0n, scale: 0 };

const POWERS_OF_TEN: bigint[] = Array.from({ length: 40 }, (_, exponent) => 10n ** BigInt(exponent));

function pow10(exponent: number): bigint {
  return POWERS_OF_TEN[exponent] ?? 10n ** BigInt(exponent);
}

/** The same value at a larger scale (exact). */
function rescaleUp(value: TDecimal, scale: number): bigint {
  return value.units * pow10(scale - value.scale);
}

/** Integer division rounding half away from zero: the tax authority's "redondeo" on .5. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new Error('Division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (n * 2n + d) / (d * 2n);
  return negative ? -quotient : quotient;
}

/** Exact sum. */
export function add(a: TDecimal, b: TDecimal): TDecimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescaleUp(a, scale) + rescaleUp(b, scale), scale };
}

/** Exact difference. */
export function subtract(a: TDecimal, b: TDecimal): TDecimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescaleUp(a, scale) - rescaleUp(b, scale), scale };
}

/** Exact product (the scale is the sum of both scales). */
export function multiply(a: TDecimal, b: TDecimal): TDecimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** `a / b` rounded half up to `scale` decimals. Dividing by zero is a programmer error. */
export function divide(a: TDecimal, b: TDecimal, scale: number): TDecimal {
  // a/b = (a.units / 10^a.scale) / (b.units / 10^b.scale); scale the numerator so the quotient has `scale` digits.
  const exponent = scale + b.scale - a.scale;
  const numerator = exponent >= 0 ? a.units * pow10(exponent) : a.units;
  const denominator = exponent >= 0 ? b.units : b.units * pow10(-exponent);
  return { units: divideHalfUp(numerator, denominator), scale };
}

/** Rounds half up (away from zero on .5) to `scale` decimals; never adds precision it lacks. */
export function round(value: TDecimal, scale: number): TDecimal {
  if (value.scale <= scale) return { units: rescaleUp(value, scale), scale };
  return { units: divideHalfUp(value.units, pow10(value.scale - scale)), scale };
}

/** Exact sum of a list (zero when empty). */
export function sum(values: readonly TDecimal[]): TDecimal {
  return values.reduce<TDecimal>((total, value) => add(total, value), ZERO);
}

/** The opposite value. */
export function negate(value: TDecimal): TDecimal {
  return { units: -value.units, scale: value.scale };
}

/** The absolute value. */
export function abs(value: TDecimal): TDecimal {
  return value.units < 0n ? negate(value) : value;
}

/** -1, 0 or 1, comparing values regardless of scale. */
export function compare(a: TDecimal, b: TDecimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const difference = rescaleUp(a, scale) - rescaleUp(b, scale);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}

/** Whether the value is zero at any scale. */
export function isZero(value: TDecimal): boolean {
  return value.units === 0n;
}

/** Whether the value is below zero. */
export function isNegative(value: TDecimal): boolean {
  return value.units < 0n;
}

/** Whether the value is above zero. */
export function isPositive(value: TDecimal): boolean {
  return value.units > 0n;
}

/** Text with exactly `decimals` fraction digits, rounding half up when the value has more. */
export function formatDecimal(value: TDecimal, decimals: number): string {
  const rounded = round(value, decimals);
  const negative = rounded.units < 0n;
  const digits = (negative ? -rounded.units : rounded.units).toString().padStart(decimals + 1, '0');
  const integerPart = digits.slice(0, digits.length - decimals);
  const fractionPart = digits.slice(digits.length - decimals);
  const text = decimals === 0 ? integerPart : `${integerPart}.${fractionPart}`;
  return negative ? `-${text}` : text;
}

/**
 * Shortest text between `minDecimals` and `maxDecimals` fraction digits (prices: 2 to 4),
 * rounding half up at `maxDecimals`.
 */
export function formatDecimalTrimmed(value: TDecimal, minDecimals: number, maxDecimals: number): string {
  let text = formatDecimal(value, maxDecimals);
  let decimals = maxDecimals;
  while (decimals > minDecimals && text.endsWith('0')) {
    text = text.slice(0, -1);
    decimals -= 1;
  }
  return text.endsWith('.') ? text.slice(0, -1) : text;
}

/** Number of fraction digits written in decimal text (`"1.10"` has 2). */
export function fractionDigits(value: TDecimal): number {
  return value.scale;
}
