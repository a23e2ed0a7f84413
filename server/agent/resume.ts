/**
 * Resuming a reply cut by a pause: the model is asked not to repeat the partial reply, but some do.
 * While the output so far could still be the partial repeated, it is held back; a full repeat is dropped.
 */
export class RepeatedPrefix {
  private held = "";
  private decided: boolean;
  private readonly partial: string;

  constructor(partial: string) {
    this.partial = partial.trim();
    this.decided = !this.partial;
  }

  push(piece: string): string {
    if (this.decided) return piece;
    this.held += piece;
    const candidate = this.held.trimStart();
    if (candidate.length < this.partial.length) {
      if (this.partial.startsWith(candidate)) return "";
      return this.release(this.held);
    }
    return this.release(candidate.startsWith(this.partial) ? candidate.slice(this.partial.length) : this.held);
  }

  end(): string {
    return this.decided ? "" : this.release(this.held);
  }

  private release(text: string): string {
    this.decided = true;
    this.held = "";
    return text;
  }
}
