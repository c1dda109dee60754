export * from './port';
export { RazorpayGateway, type RazorpaySettings } from './razorpay';
export { LocalTestGateway, LOCAL_CHECKOUT_PATH, CHECKOUT_RETURN_PATH } from './local-gateway';
export { paymentsFromConfig, type Payments } from './from-config';
export { parsePaymentNotice, type PaymentNotice } from './webhooks';
export { checkoutSignature, hmacHex, verifyCheckoutSignature, verifyWebhookSignature } from './signatures';
