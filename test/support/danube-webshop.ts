import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A stand-in for danube-web.shop, the demo shop the Checkly CLI's example projects monitor: only
 * what their specs and checks read (see test/fixtures/checkly-examples). Every page shares one
 * layout: category links (no list items: the cart counts the page's only `<li>`), a search box
 * that filters `/api/books` as the user types or clicks Search, and a "Log in" button opening a
 * hidden form (hidden, so the search box stays the page's only textbox until then).
 */

interface Book {
  id: number;
  title: string;
  author: string;
  genre: string;
  price: string;
}

/** `/api/books`: the advanced project's API check asserts `$[0].id` and `$[0].author == 'Fric Eromm'`. */
export const DANUBE_BOOKS: readonly Book[] = [
  { id: 1, title: 'Haben oder haben', author: 'Fric Eromm', genre: 'philosophy', price: '9.95' },
  { id: 2, title: 'The Grand Budapest Ledger', author: 'Adam Smithers', genre: 'economics', price: '14.50' },
  { id: 3, title: 'The Sitting', author: 'Stephen Kong', genre: 'horror', price: '11.20' },
  { id: 4, title: 'Parry Hotter', author: 'J/K Rowlin', genre: 'fantasy', price: '8.40' },
  { id: 5, title: 'The Pickled Lynx', author: 'Tolkien Jr.', genre: 'fantasy', price: '12.00' },
  { id: 6, title: 'Laughterhouse-Five', author: 'Truk Tugennov', genre: 'scifi', price: '10.10' },
];

const CATEGORIES = ['Fantasy', 'Horror', 'Scifi', 'Philosophy', 'Economics'];

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const preview = (b: Book) =>
  `<a class="preview" href="/books/${b.id}"><div class="title">${escapeHtml(b.title)}</div><div class="author">${escapeHtml(b.author)}</div></a>`;

// The search runs in the page: live on input (the suites' "Search bar is interactive" never clicks)
// and on the Search button (the browser check clicks it).
const SEARCH_SCRIPT = `
const box = document.getElementById('search');
async function search() {
  const q = box.value.trim().toLowerCase();
  const results = document.getElementById('results');
  if (!q) { results.innerHTML = ''; return; }
  const books = await (await fetch('/api/books')).json();
  results.innerHTML = books.filter((b) => (b.title + ' ' + b.author).toLowerCase().includes(q))
    .map((b) => '<a class="preview" href="/books/' + b.id + '"><div class="title">' + b.title + '</div><div class="author">' + b.author + '</div></a>').join('');
  document.getElementById('content').hidden = true;
}
box.addEventListener('input', search);
document.getElementById('search-button').addEventListener('click', search);
document.getElementById('login').addEventListener('click', () => { document.getElementById('login-form').hidden = false; });
`;

function page(title: string, content: string): string {
  const nav = CATEGORIES.map((c) => `<a href="/category?string=${c.toLowerCase()}">${c}</a>`).join(' ');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)} | Danube WebShop</title></head><body>
<header><a href="/">Danube WebShop</a>
<input id="search" type="text" aria-label="Search books"> <button id="search-button">Search</button>
<button id="login">Log in</button>
<form id="login-form" hidden onsubmit="return false"><input type="email" placeholder="Email"> <input type="password" placeholder="Password"> <button>Sign in</button></form>
</header>
<nav>${nav}</nav>
<section id="results"></section>
<main id="content">${content}</main>
<script>${SEARCH_SCRIPT}</script>
</body></html>`;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

/** Answers the shop's pages and `/api/books`; returns false for any other path (left to the caller). */
export function serveDanubeWebshop(req: IncomingMessage, res: ServerResponse): boolean {
  const url = new URL(req.url ?? '/', 'http://shop.invalid');
  const html = (status: number, title: string, content: string) => send(res, status, 'text/html; charset=utf-8', page(title, content));
  if (url.pathname === '/') {
    html(200, 'Home', '<h2>SPECIAL OFFER: 20% OFF BOOKS</h2><p>Browse the categories or search by title or author.</p>');
  } else if (url.pathname === '/api/books') {
    send(res, 200, 'application/json; charset=utf-8', JSON.stringify(DANUBE_BOOKS));
  } else if (url.pathname === '/category') {
    const genre = url.searchParams.get('string') ?? '';
    const books = DANUBE_BOOKS.filter((b) => b.genre === genre);
    if (!CATEGORIES.some((c) => c.toLowerCase() === genre)) html(404, 'Not found', '<h2>No such category</h2>');
    else html(200, genre, `<h2>${escapeHtml(genre)}</h2>${books.map(preview).join('')}`);
  } else if (/^\/books\/\d+$/.test(url.pathname)) {
    const book = DANUBE_BOOKS.find((b) => b.id === Number(url.pathname.slice('/books/'.length)));
    if (!book) html(404, 'Not found', '<h2>No such book</h2>');
    else html(200, book.title, `<h2>${escapeHtml(book.title)}</h2><p>${escapeHtml(book.author)}, $${book.price}</p>`
      + `<button onclick="location.href='/cart?add=${book.id}'">Add to cart</button>`);
  } else if (url.pathname === '/cart') {
    const book = DANUBE_BOOKS.find((b) => b.id === Number(url.searchParams.get('add')));
    const items = book ? `<ul><li>${escapeHtml(book.title)}, $${book.price}</li></ul>` : '<p>Nothing here yet.</p>';
    html(200, 'Cart', `<h2>Your Shopping Cart</h2>${items}<p>Total: $${book?.price ?? '0.00'}</p><button>Checkout</button>`);
  } else {
    return false;
  }
  return true;
}
