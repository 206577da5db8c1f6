/**
 * node-diff3 ships its types only through its package "exports", which this project's module resolution (CommonJS)
 * does not read: the part merge.ts uses, as its own declarations give it.
 */
declare module 'node-diff3' {
  export interface MergeRegion<T> {
    ok?: T[];
    conflict?: { a: T[]; aIndex: number; o: T[]; oIndex: number; b: T[]; bIndex: number };
  }
  export function diff3Merge<T>(a: T[], o: T[], b: T[], options?: { excludeFalseConflicts?: boolean }): MergeRegion<T>[];
}
