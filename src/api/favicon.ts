/**
 * Lookout's icon: a pulse line in a ring, in the console's accent colour. Served at /favicon.svg and
 * /favicon.ico (what a browser asks for when a page names no icon: public status pages and dashboards
 * without their own, on any host) and named by the console, GraphiQL and the API reference.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<circle cx="16" cy="16" r="14" fill="#0b5fff"/>
<path d="M5 17h6l2.5-6 4 11 3-8 1.5 3H27" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>
</svg>
`;
