import { describe, expect, it } from 'vitest';
import type { AuditActor } from '../../src/domain/audit-actor.js';
import { currentAuditActor, openAuditScope, runAsAuditActor, runAsSystem } from '../../src/store/audit-actor-scope.js';

const actor = (label: string): AuditActor => ({ kind: 'user', id: label, label, via: 'rest', ip: null });
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the audit actor scope', () => {
  it('names the actor in everything a scope runs, across awaits, and nobody outside it', async () => {
    const scope = openAuditScope(actor('ann'));
    const seen = await scope.run(async () => {
      await tick();
      return currentAuditActor()?.label;
    });
    expect(seen).toBe('ann');
    expect(currentAuditActor()).toBeUndefined();
    scope.close();
  });

  it('keeps each of two overlapping scopes to its own actor until the last one closes', async () => {
    const a = openAuditScope(actor('ann'));
    const b = openAuditScope(actor('bob'));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const bSees = b.run(async () => {
      await gate;
      return currentAuditActor()?.label;
    });
    expect(await a.run(async () => currentAuditActor()?.label)).toBe('ann');
    a.close();
    a.close(); // closing twice changes nothing
    release();
    expect(await bSees).toBe('bob');
    b.close();
    expect(await runAsAuditActor(actor('cy'), async () => currentAuditActor()?.label)).toBe('cy');
  });

  it('runs system work as nobody, inside a scope or outside any', async () => {
    expect(runAsSystem(() => currentAuditActor())).toBeUndefined();
    expect(await runAsAuditActor(actor('ann'), async () => runAsSystem(() => currentAuditActor()))).toBeUndefined();
  });
});
