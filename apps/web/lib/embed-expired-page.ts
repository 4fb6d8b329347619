/**
 * The page of an expired embed link (410, answered by proxy.ts; pure): a plain notice in Spanish
 * with the embed's padding, and its height posted to the token's origin as the live page does
 * (`ecf:embed-height`, components/embed-frame.tsx). `origin` is read from the unverified token,
 * which is harmless here: the page holds no data and no action.
 */
export function expiredEmbedPage(options: { nonce: string; origin: string | null }): string {
  const post =
    options.origin === null
      ? ''
      : `<script nonce="${options.nonce}">(function(){function p(){parent.postMessage({type:'ecf:embed-height',height:Math.ceil(document.body.getBoundingClientRect().height)},${JSON.stringify(options.origin)});}if(parent!==window){p();new ResizeObserver(p).observe(document.body);}})();</script>`;
  return [
    '<!doctype html><html lang="es"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>El enlace venció · Portal e-CF</title>',
    `<style nonce="${options.nonce}">body{margin:0;padding:1.5rem;font-family:system-ui,sans-serif;color:#1a1f26;line-height:1.5}h1{font-size:1.25rem;margin:0 0 .5rem}p{margin:0}</style>`,
    '</head><body><main><h1>El enlace venció</h1>',
    '<p>Este enlace de certificación ya no es válido (dura 15 minutos). Vuelva a abrir la certificación desde la aplicación de su proveedor de software.</p>',
    `</main>${post}</body></html>`,
  ].join('');
}
