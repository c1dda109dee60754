export const OWN_ASSETS: string;
/** See swap-dist.mjs. */
export function swapDist(dirs: { next: string; dist: string; old: string }): Promise<{ carried: number }>;
