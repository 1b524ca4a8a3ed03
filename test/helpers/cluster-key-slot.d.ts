// Types of the cluster-key-slot package (it ships none).
declare module 'cluster-key-slot' {
  function calculateSlot(key: string | Buffer): number;
  export default calculateSlot;
}
