/**
 * Whether a process with this id exists on this machine (signal 0 probes without signalling). EPERM
 * means it exists but belongs to another user, which still holds whatever it locked.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
