import { useConnection } from './connection-context.js';
import './connection-banner.css';

/**
 * Says when what the console shows is not live: while the socket is down (it reconnects by itself,
 * and the screen re-reads its data once back), or when the server refused it for good.
 */
export function ConnectionBanner() {
  const { phase } = useConnection();
  // The live region stays mounted so screen readers announce the text when it appears.
  return (
    <div role="status" className={phase === 'reconnecting' || phase === 'stopped' ? 'connection-banner' : 'visually-hidden'}>
      {phase === 'reconnecting' && 'Disconnected — reconnecting… What you see may be out of date.'}
      {phase === 'stopped' && 'Disconnected — the server closed the live connection. Reload the page to reconnect.'}
    </div>
  );
}
