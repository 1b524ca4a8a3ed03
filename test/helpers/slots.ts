// The Redis Cluster slot of a key (CRC16 of its hash tag, or of the whole key without one), as
// the client computes it: the same package ioredis routes commands with.
import clusterKeySlot from 'cluster-key-slot';

export const calculateSlot = (key: string): number => clusterKeySlot(key);
