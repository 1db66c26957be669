// Each thread writes four consecutive channels from 3 * i: the slots are 3 bytes apart, so thread i's last
// channel is thread i + 1's first. The offset is a loop counter, not a parameter: a race whatever the caller passes.
// expect: race.global, coalescing
// kopt: launch paint grid=(64) block=(256) args=(img)
__global__ void paint(unsigned char *img) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < 4; c++) img[3 * i + c] = (unsigned char)threadIdx.x;
}
