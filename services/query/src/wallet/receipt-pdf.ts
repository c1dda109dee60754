import PDFDocument from 'pdfkit';
import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE, type ReceiptLabels } from '@telemed/contracts';
import { registerScriptFonts, writeLine } from '../records/pdf-scripts';

type Doc = InstanceType<typeof PDFDocument>;

/** Who sells the packs (BUSINESS_NAME, BUSINESS_ADDRESS, BUSINESS_GSTIN). */
export interface Seller {
  name: string;
  address?: string;
  gstin?: string;
}

export interface ReceiptView {
  payment_id: string;
  at: string;
  credits: number;
  amount_paise: number;
}

const both = (english: string, translated: string | undefined) => (translated ? `${english} / ${translated}` : english);
/** Rupees as the standard fonts can print them (they hold no ₹ sign). */
const inr = (paise: number) => `INR ${(paise / 100).toFixed(2)}`;

/** A pack's receipt (issue 36): the seller, the date, the pack, the amount and the payment's id, beside the English in the patient's language. */
export function renderReceiptPdf(receipt: ReceiptView, seller: Seller, words: ReceiptLabels | null): Doc {
  const doc = new PDFDocument({ size: 'A5', margin: 40, info: { Title: `Receipt ${receipt.payment_id}`, Author: seller.name, Subject: 'Receipt' } });
  registerScriptFonts(doc);
  const w = words ?? undefined;
  writeLine(doc, seller.name, { size: 16, bold: true });
  if (seller.address) writeLine(doc, seller.address);
  if (seller.gstin) writeLine(doc, `GSTIN: ${seller.gstin}`);
  doc.moveDown(0.5).moveTo(40, doc.y).lineTo(380, doc.y).stroke().moveDown(0.5);
  writeLine(doc, both('Receipt', w?.receipt), { size: 14, bold: true });
  writeLine(doc, `${both('Date', w?.date)}: ${DateTime.fromISO(receipt.at).setZone(DEFAULT_TIMEZONE).toFormat('dd LLL yyyy, HH:mm')} IST`);
  writeLine(doc, `${both('Payment id', w?.paymentId)}: ${receipt.payment_id}`);
  doc.moveDown(0.5);
  const credits = `${receipt.credits} credits`;
  writeLine(doc, `${both('Item', w?.item)}: ${both(credits, w?.credits.replace('{n}', String(receipt.credits)))}`);
  writeLine(doc, `${both('Amount paid', w?.amountPaid)}: ${inr(receipt.amount_paise)}`, { bold: true });
  doc.end();
  return doc;
}
