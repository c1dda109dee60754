/** Rupees as Indians read them (₹1,23,456; paise only when there are any), the one way every fee and price is shown. */
const WHOLE = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });
const WITH_PAISE = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatRupees(amount: number): string {
  return Number.isInteger(amount) ? WHOLE.format(amount) : WITH_PAISE.format(amount);
}
