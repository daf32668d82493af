// Whose a resource is: the owner id every stored resource is keyed under (the storage port puts it in
// every key, so a lookup by another caller is the same miss as an id that never existed).
export interface Owner {
  readonly ownerId: string;
}
