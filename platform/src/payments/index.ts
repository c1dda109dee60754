export * from './port';
export { RazorpayGateway, type RazorpaySettings } from './razorpay';
export { checkoutSignature, hmacHex, verifyCheckoutSignature, verifyWebhookSignature } from './signatures';
