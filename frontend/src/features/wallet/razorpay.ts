/** What Razorpay's checkout answers when a payment succeeds (its documented handler argument). */
export interface RazorpaySuccess {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

interface RazorpayOptions {
  key: string;
  order_id: string;
  amount: number;
  currency: 'INR';
  name: string;
  handler: (response: RazorpaySuccess) => void;
  modal: { ondismiss: () => void };
}

declare global {
  interface Window {
    Razorpay?: new (options: RazorpayOptions) => { open(): void; on(event: 'payment.failed', handler: () => void): void };
  }
}

const CHECKOUT_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js';
let loading: Promise<void> | null = null;

/** Razorpay's checkout script, loaded once, when a patient first buys (the CSP allows it only where Razorpay is configured). */
function loadCheckout(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = CHECKOUT_SCRIPT;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = null;
      reject(new Error('The payment page could not be opened'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * Opens Razorpay's checkout for an order (UPI by intent on phones and by QR code on desktops, cards, net banking:
 * Razorpay's page offers them): its answer when paid, null when the patient closes it. A failed attempt stays in the
 * checkout, which lets the patient try again.
 */
export async function openRazorpayCheckout(input: { key: string; order_id: string; amount: number; name: string }): Promise<RazorpaySuccess | null> {
  await loadCheckout();
  const Razorpay = window.Razorpay;
  if (!Razorpay) throw new Error('The payment page could not be opened');
  return new Promise((resolve) => {
    const checkout = new Razorpay({ ...input, currency: 'INR', handler: resolve, modal: { ondismiss: () => resolve(null) } });
    checkout.open();
  });
}
