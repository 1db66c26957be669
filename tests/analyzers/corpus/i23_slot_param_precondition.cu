// Each thread owns a 4-byte RGBA pixel: it sets the alpha byte, then one channel chosen by a parameter. Threads
// meet only if `channel` leaves the pixel (4 or more, or negative: thread i's channel lands in another pixel),
// which the kernel presumes away: a precondition note.
// expect: race.precondition, coalescing
// kopt: launch paint grid=(64) block=(256) args=(img, channel)
__global__ void paint(unsigned char *img, int channel) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  img[4 * i + 3] = 255;
  img[4 * i + channel] = (unsigned char)threadIdx.x;
}
