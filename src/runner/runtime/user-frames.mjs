// Stack frames of a bundled script in the user's terms: `node --enable-source-maps` maps them to
// the project's files under the run's project folder; these helpers keep those and name them by
// their project-relative path (`__checks__/auth-client.ts:3:31`).

/** The frames of `stack` in the project's files, their paths made project-relative; the bundle's own and the runtime's are dropped. */
export function userFrames(stack, projectDir) {
  const prefix = `${projectDir.replace(/\/$/, '')}/`;
  return String(stack ?? '').split('\n')
    .filter((line) => line.includes(prefix) && !line.includes(`${prefix}.lookout-bundle.mjs`) && !line.includes(`${prefix}lookout-runtime/`))
    .map((line) => line.trim().replaceAll(`file://${prefix}`, '').replaceAll(prefix, ''));
}

/** `path:line:column` of the innermost user frame of `stack`, or null. */
export function userFrame(stack, projectDir) {
  const first = userFrames(stack, projectDir)[0];
  const where = first?.match(/\(?([^\s()]+:\d+:\d+)\)?$/);
  return where ? where[1] : null;
}
