import { useRef } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconUpload } from '@tabler/icons-react';
import { formatBytes } from '@lm/shared';

/**
 * A drop zone for one file (documents, imports): it takes a dragged file, and choosing one is a real button inside
 * it (its own name, a Tab stop, Enter and Space), not a focusable area around a hidden input. Shows the chosen file.
 */
export function FileDrop({
  file,
  onFile,
  disabled,
  hint = 'Drag a file here, or',
}: {
  file: File | null;
  onFile: (file: File | null) => void;
  disabled: boolean;
  /** What the zone says before a file is chosen. */
  hint?: string;
}) {
  const openRef = useRef<() => void>(null);
  return (
    <Dropzone
      onDrop={(files) => onFile(files[0] ?? null)}
      multiple={false}
      disabled={disabled}
      openRef={openRef}
      activateOnClick={false}
      activateOnKeyboard={false}
      enablePointerEvents
    >
      <Stack align="center" gap="xs" py="lg">
        <IconUpload size={32} aria-hidden />
        <Text size="sm" ta="center" style={{ wordBreak: 'break-word' }}>
          {file ? `${file.name} (${formatBytes(file.size)})` : hint}
        </Text>
        <Button variant="default" size="sm" onClick={() => openRef.current?.()} disabled={disabled}>
          {file ? 'Choose another file' : 'Choose a file'}
        </Button>
      </Stack>
    </Dropzone>
  );
}
