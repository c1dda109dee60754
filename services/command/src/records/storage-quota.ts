/** What a patient's records hold in files, as the read model counted them up to a log position. */
export interface StoredBytes {
  bytes: number;
  /** The log position of the latest file counted (0: none). */
  position: number;
}

/** How long an upload written to the log is still counted here, waiting for the read model to count it. */
const SETTLED_KEPT_MS = 5 * 60_000;

interface PatientUsage {
  /** The freshest count read from the read model. */
  stored: StoredBytes;
  /** Uploads under way, and those written to the log but perhaps not yet counted by the read model. */
  claims: Set<StorageClaim>;
}

/**
 * One upload's share of a patient's storage: its bytes are counted as they flow, so two uploads of one patient at once
 * cannot both pass the limit, and once written it stays counted (with its log position) until the read model has
 * counted it too.
 */
export class StorageClaim {
  bytes = 0;
  position: number | null = null;
  private refused = false;

  constructor(
    private readonly quota: StorageQuota,
    private readonly usage: PatientUsage,
    private readonly patientId: string,
  ) {}

  /** Bytes still free for this upload. */
  room(): number {
    return this.quota.limitBytes - this.quota.used(this.usage);
  }

  /**
   * Counts `bytes` more; false when they take the patient past the limit. A refused upload stops counting at once (its
   * files are discarded), so the patient's other uploads under way are not refused for bytes that will not be kept.
   */
  take(bytes: number): boolean {
    if (this.refused) return false;
    this.bytes += bytes;
    if (this.quota.used(this.usage) <= this.quota.limitBytes) return true;
    this.refused = true;
    this.bytes = 0;
    return false;
  }

  /** The upload is in the log at `position`: counted here until the read model has passed it (or a while has gone). */
  settle(position: number | null): void {
    if (position === null) return this.release();
    this.position = position;
    setTimeout(() => this.release(), SETTLED_KEPT_MS).unref();
  }

  /** The upload failed (nothing of it is kept) or has been counted by the read model. */
  release(): void {
    this.quota.forget(this.patientId, this);
  }
}

/**
 * The per-patient storage quota (RECORDS_QUOTA_MB): what the patient's records already hold comes from one read-model
 * document (its cost does not grow with history, and no blob is looked at), plus this process's uploads under way or
 * not yet counted there. Across several command processes the uploads under way in the others are not seen; each
 * person has at most RECORD_LIMITS.uploadsInFlightPerUser of those per process, which bounds the overshoot.
 */
export class StorageQuota {
  private readonly patients = new Map<string, PatientUsage>();

  constructor(
    readonly limitBytes: number,
    private readonly storedBytes: (patientId: string) => Promise<StoredBytes>,
  ) {}

  /** A claim for one upload of this patient's, counted from now until it is released or counted by the read model. */
  async claim(patientId: string): Promise<StorageClaim> {
    const stored = await this.storedBytes(patientId);
    let usage = this.patients.get(patientId);
    if (!usage) this.patients.set(patientId, (usage = { stored, claims: new Set() }));
    else if (stored.position >= usage.stored.position) {
      usage.stored = stored;
      for (const c of usage.claims) if (c.position !== null && c.position <= stored.position) usage.claims.delete(c);
    }
    const claim = new StorageClaim(this, usage, patientId);
    usage.claims.add(claim);
    return claim;
  }

  /** The patient's bytes: the read model's count, plus every claim it has not counted yet. */
  used(usage: PatientUsage): number {
    let bytes = usage.stored.bytes;
    for (const claim of usage.claims) if (claim.position === null || claim.position > usage.stored.position) bytes += claim.bytes;
    return bytes;
  }

  forget(patientId: string, claim: StorageClaim): void {
    const usage = this.patients.get(patientId);
    if (!usage) return;
    usage.claims.delete(claim);
    // Claims the read model has counted leave too; with none left, nothing of the patient is kept here.
    for (const c of usage.claims) if (c.position !== null && c.position <= usage.stored.position) usage.claims.delete(c);
    if (usage.claims.size === 0) this.patients.delete(patientId);
  }
}
