// Units as types: a time in ms, a sample rate, a pixel count and a sample
// index are all numbers, and mixing them is a bug the compiler should catch.

declare const unit: unique symbol;
type Unit<T extends string> = number & { readonly [unit]: T };

/** Milliseconds: a UTC instant (float64) or a duration. */
export type Ms = Unit<'ms'>;
/** Samples per second. */
export type Hz = Unit<'Hz'>;
/** A count of pixel columns. */
export type Px = Unit<'px'>;
/** Index of a sample inside a channel (0-based). */
export type SampleIndex = Unit<'sample'>;

/** Marks a number as milliseconds. */
export const ms = (value: number): Ms => value as Ms;
/** Marks a number as a sample rate in Hz. */
export const hz = (value: number): Hz => value as Hz;
/** Marks a number as a pixel count. */
export const px = (value: number): Px => value as Px;
