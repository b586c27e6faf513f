import type { AnchorHTMLAttributes } from 'react';
import { useLinkHandler } from './use-route.js';

/** An in-app link: a real <a href> (keyboard, new tab) that navigates without reloading. */
export function Link({ to, ...props }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = useLinkHandler(to);
  return <a href={to} onClick={onClick} {...props} />;
}
