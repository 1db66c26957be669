// A matrix view class built in the kernel: its constructor's member initializers set the data pointer and the row
// length, and each thread writes its own element through a member function.
// expect: none
// kopt: launch scale grid=(16, 64) block=(32, 4) args=(m, 64, 512)
class MatrixView {
 public:
  float *data;
  const int width;
  __device__ MatrixView(float *data, int height, int width) : data(data), width(width) {}
  __device__ float *item_ptr(int row, int column) const { return &data[row * width + column]; }
};

__global__ void scale(float *m, int height, int width) {
  MatrixView v(m, height, width);
  int row = blockIdx.y * 4 + threadIdx.y;
  int column = blockIdx.x * 32 + threadIdx.x;
  if (row < height && column < width) *v.item_ptr(row, column) *= 2.f;
}
