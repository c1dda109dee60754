/**
 * Rupees as Indians read them (₹1,23,456; paise only when there are any), the one way every fee and price is shown.
 * In every language alike: Western digits and India's grouping, which CLDR gives Marathi, Kannada and Malayalam
 * money only in the international one (₹1,234,567).
 */
const WHOLE = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });
const WITH_PAISE = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const COUNT = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 });

export function formatRupees(amount: number): string {
  return Number.isInteger(amount) ? WHOLE.format(amount) : WITH_PAISE.format(amount);
}

/** A count (views, records) the same way: 12,34,567. */
export function formatCount(count: number): string {
  return COUNT.format(count);
}
