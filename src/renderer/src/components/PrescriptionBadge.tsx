/** Marks an order or item that needs a prescription checked. */
export function PrescriptionBadge() {
  return (
    <span className="badge badge-rx" title="Prescription needed">
      <span aria-hidden="true">℞</span> Prescription
    </span>
  );
}
