import { PlannedFeatures } from '../../components/planned-features.tsx';

export function DocumentsPage() {
  return (
    <PlannedFeatures
      title="Documents"
      intro="Document management is planned for a coming release. It will include:"
      features={[
        'Document upload',
        'Organization into folders and tags',
        'Sharing with brokers and agents',
        'Version history',
        'Text recognition (OCR) for scanned licenses',
      ]}
    />
  );
}
