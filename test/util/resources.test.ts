import { describe, expect, it } from 'vitest';
import { Resources } from '../../src/util/resources.js';

describe('Resources: what a piece of work holds, let go in one place', () => {
  it('releases everything when the work succeeds, last acquired first; an undo is not run', async () => {
    const order: string[] = [];
    const result = await Resources.using(async (scope) => {
      const server = scope.hold({ name: 'server' }, (s) => void order.push(`close ${s.name}`));
      scope.defer(() => order.push('unlock'));
      scope.undoOnFailure(() => order.push('remove partial files'));
      scope.defer(async () => {
        await new Promise((done) => setTimeout(done, 1));
        order.push('close journal');
      });
      return server.name;
    });
    expect(result).toBe('server');
    expect(order).toEqual(['close journal', 'unlock', 'close server']);
  });

  it('on failure runs the undos too, and throws the work’s own error, not a release’s', async () => {
    const order: string[] = [];
    const error = await Resources.using(async (scope) => {
      scope.defer(() => order.push('close server'));
      scope.defer(() => {
        throw new Error('lock already gone');
      });
      scope.undoOnFailure(() => order.push('remove partial files'));
      throw new Error('the run failed');
    }).catch((e: unknown) => e);
    expect(String(error)).toBe('Error: the run failed');
    expect(order).toEqual(['remove partial files', 'close server']);
  });

  it('an undo kept once its work succeeded is not run by a later failure', async () => {
    const order: string[] = [];
    await Resources.using(async (scope) => {
      const keep = scope.undoOnFailure(() => order.push('remove reports'));
      keep();
      throw new Error('history locked');
    }).catch(() => {});
    expect(order).toEqual([]);
  });

  it('every release runs even when one throws; after a success that error is thrown', async () => {
    const order: string[] = [];
    const error = await Resources.using(async (scope) => {
      scope.defer(() => order.push('close server'));
      scope.defer(() => {
        throw new Error('close failed');
      });
      scope.defer(() => order.push('close journal'));
      return 'done';
    }).catch((e: unknown) => e);
    expect(String(error)).toBe('Error: close failed');
    expect(order).toEqual(['close journal', 'close server']);
  });
});
