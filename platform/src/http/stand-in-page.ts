/** HTML-escapes text for an element's content or a quoted attribute. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * A page of a development stand-in (the local identity provider, the local test gateway): plain server-rendered forms
 * that work without script. `body` is markup its caller escaped.
 */
export function standInPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,sans-serif;background:#f5f7fa;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;max-width:420px;width:calc(100% - 2rem);padding:1.5rem;border-radius:12px;box-shadow:0 2px 8px #0002}
h1{font-size:1.3rem;margin-top:0}p{color:#555}form{margin:.5rem 0}button{width:100%;padding:.7rem;border-radius:8px;border:1px solid #0b6bcb;background:#0b6bcb;color:#fff;font-size:1rem;cursor:pointer}
button.secondary{background:#fff;color:#0b6bcb}input{width:100%;box-sizing:border-box;padding:.7rem;margin:.3rem 0 .6rem;border:1px solid #bbb;border-radius:8px;font-size:1rem}
label{font-size:.9rem;color:#333}</style></head><body><main>${body}</main></body></html>`;
}
