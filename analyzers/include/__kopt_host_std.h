#pragma once
// kopt analyzer stub: the host library types that declarations around kernels name (a class's
// `friend std::ostream& operator<<`, a std::string member, a std::vector of sizes, a std::map of names). Host code
// is not analyzed; these only let such declarations parse, so the kernels that use them stay on the libclang path.
#include "__kopt_host_c.h"
namespace std {
class ostream;
typedef ostream &(*__kopt_manip)(ostream &);
struct ios_base {
  typedef int fmtflags;
  typedef int openmode;
  static const int in = 1, out = 2, binary = 4, app = 8, trunc = 16, ate = 32;
  static const int fixed = 1, scientific = 2, left = 4, right = 8, hex = 16, dec = 32, boolalpha = 64;
};
class ios : public ios_base {
 public:
  bool good() const; bool fail() const; bool eof() const; bool bad() const; explicit operator bool() const;
  bool operator!() const; int precision(int); int precision() const; int width(int); char fill(char);
  fmtflags flags(fmtflags); fmtflags setf(fmtflags); fmtflags setf(fmtflags, fmtflags); void unsetf(fmtflags);
};
class ostream : virtual public ios {
 public:
  template <class T> ostream &operator<<(const T &);
  ostream &operator<<(__kopt_manip);
  ostream &write(const char *, long); ostream &put(char); ostream &flush();
};
class istream : virtual public ios {
 public:
  template <class T> istream &operator>>(T &);
  istream &read(char *, long); istream &get(char &); int get(); istream &ignore(long = 1, int = -1);
  long gcount() const; istream &seekg(long); istream &seekg(long, int); long tellg();
};
class iostream : public istream, public ostream {};
extern ostream cout, cerr, clog;
extern istream cin;
ostream &endl(ostream &); ostream &flush(ostream &); ostream &fixed(ostream &); ostream &scientific(ostream &);
ostream &left(ostream &); ostream &right(ostream &); ostream &hex(ostream &); ostream &dec(ostream &);
struct __kopt_setter { int v; };
__kopt_setter setprecision(int); __kopt_setter setw(int); __kopt_setter setfill(char);

class string {
 public:
  static const unsigned long npos = ~0ul;
  string(); string(const char *); string(const char *, unsigned long); string(unsigned long, char);
  string(const string &);
  string &operator=(const string &); string &operator=(const char *);
  string &operator+=(const string &); string &operator+=(const char *); string &operator+=(char);
  const char *c_str() const; const char *data() const; unsigned long size() const; unsigned long length() const;
  bool empty() const; char &operator[](unsigned long); const char &operator[](unsigned long) const;
  string substr(unsigned long = 0, unsigned long = npos) const; unsigned long find(const string &) const;
  unsigned long find(char) const; int compare(const string &) const; void clear(); void resize(unsigned long);
  void push_back(char); char *begin(); char *end(); const char *begin() const; const char *end() const;
  void reserve(unsigned long); string &append(const string &); string &append(const char *);
  unsigned long rfind(const string &) const; unsigned long rfind(char) const; unsigned long find(const char *) const;
  char &back(); char &front();
};
string operator+(const string &, const string &); string operator+(const string &, const char *);
string operator+(const char *, const string &); bool operator==(const string &, const string &);
bool operator!=(const string &, const string &); bool operator<(const string &, const string &);
bool operator==(const string &, const char *); string to_string(int); string to_string(long);
string to_string(unsigned); string to_string(unsigned long); string to_string(long long);
string to_string(unsigned long long); string to_string(float); string to_string(double);
int stoi(const string &); long stol(const string &); float stof(const string &); double stod(const string &);
istream &getline(istream &, string &); istream &getline(istream &, string &, char);

class ofstream : public ostream {
 public:
  ofstream(); explicit ofstream(const char *, int = ios_base::out); explicit ofstream(const string &, int = ios_base::out);
  void open(const char *, int = ios_base::out); void open(const string &, int = ios_base::out); bool is_open() const;
  void close();
};
class ifstream : public istream {
 public:
  ifstream(); explicit ifstream(const char *, int = ios_base::in); explicit ifstream(const string &, int = ios_base::in);
  void open(const char *, int = ios_base::in); void open(const string &, int = ios_base::in); bool is_open() const;
  void close();
};
class fstream : public iostream {
 public:
  fstream(); explicit fstream(const char *, int = ios_base::in | ios_base::out); void open(const char *, int);
  bool is_open() const; void close();
};
class ostringstream : public ostream { public: ostringstream(); string str() const; void str(const string &); };
class istringstream : public istream { public: istringstream(); explicit istringstream(const string &); };
class stringstream : public iostream {
 public:
  stringstream(); explicit stringstream(const string &); string str() const; void str(const string &);
};

template <class T, class A = void> class vector {
 public:
  typedef T value_type; typedef unsigned long size_type; typedef T *iterator; typedef const T *const_iterator;
  typedef T *pointer; typedef const T *const_pointer; typedef T &reference; typedef const T &const_reference;
  typedef long difference_type; typedef A allocator_type;
  vector(); explicit vector(unsigned long); vector(unsigned long, const T &); vector(const vector &);
  vector(initializer_list<T>);
  template <class It> vector(It, It);
  vector &operator=(const vector &);
  T &operator[](unsigned long); const T &operator[](unsigned long) const; T &at(unsigned long);
  T *data(); const T *data() const; unsigned long size() const; bool empty() const; unsigned long capacity() const;
  void push_back(const T &); template <class... X> T &emplace_back(X &&...); void pop_back();
  void resize(unsigned long); void resize(unsigned long, const T &); void reserve(unsigned long); void clear();
  void assign(unsigned long, const T &); T &front(); T &back(); const T &front() const; const T &back() const;
  T *begin(); T *end(); const T *begin() const; const T *end() const;
  const T *cbegin() const; const T *cend() const;
  T *rbegin(); T *rend(); const T *rbegin() const; const T *rend() const;
  T *insert(const T *, const T &); T *erase(const T *); void swap(vector &);
};
template <class T, class A = void> class deque : public vector<T, A> {
 public: using vector<T, A>::vector; void push_front(const T &); template <class... X> T &emplace_front(X &&...);
  void pop_front();
};
template <class T, class A = void> class list : public deque<T, A> {  // (no splice: what host code around kernels calls)
 public: using deque<T, A>::deque; void remove(const T &); void sort(); void reverse();
};
template <class K, class V, class C = void, class A = void> class map {
 public:
  typedef K key_type; typedef V mapped_type; typedef pair<K, V> value_type; typedef value_type *iterator;
  typedef const value_type *const_iterator;
  map(); map(initializer_list<pair<K, V>>); map(const map &);
  V &operator[](const K &); V &at(const K &); const V &at(const K &) const;
  iterator find(const K &); const_iterator find(const K &) const; unsigned long count(const K &) const;
  unsigned long size() const; bool empty() const; void clear(); unsigned long erase(const K &);
  pair<iterator, bool> insert(const value_type &); template <class... X> pair<iterator, bool> emplace(X &&...);
  iterator begin(); iterator end(); const_iterator begin() const; const_iterator end() const;
};
template <class T> struct hash { unsigned long operator()(const T &) const; };
template <class K, class V, class H = void, class E = void, class A = void> class unordered_map
    : public map<K, V> { public: using map<K, V>::map; };
template <class K, class C = void, class A = void> class set {
 public:
  typedef const K *iterator;
  set(); set(initializer_list<K>); pair<iterator, bool> insert(const K &); unsigned long count(const K &) const;
  iterator find(const K &) const; unsigned long size() const; bool empty() const; void clear();
  iterator begin() const; iterator end() const;
};
template <class K, class H = void, class E = void, class A = void> class unordered_set
    : public set<K> { public: using set<K>::set; };

// <exception>, <stdexcept>, <string_view>, <memory>, <mutex>, <condition_variable>, <atomic>, <optional>, <tuple>, <functional>, the host side of <algorithm> and <numeric>
class exception { public: exception(); virtual ~exception(); virtual const char *what() const noexcept; };
class runtime_error : public exception {
 public: explicit runtime_error(const string &); explicit runtime_error(const char *);
};
class logic_error : public exception { public: explicit logic_error(const string &); explicit logic_error(const char *); };
class invalid_argument : public logic_error { public: using logic_error::logic_error; };
class out_of_range : public logic_error { public: using logic_error::logic_error; };
class overflow_error : public runtime_error { public: using runtime_error::runtime_error; };
class bad_alloc : public exception {};
class exception_ptr { public: exception_ptr(); exception_ptr(decltype(nullptr)); explicit operator bool() const; };
exception_ptr current_exception() noexcept;
[[noreturn]] void rethrow_exception(exception_ptr);
template <class E> exception_ptr make_exception_ptr(E) noexcept;
class string_view {
 public:
  static const unsigned long npos = ~0ul;
  string_view(); string_view(const char *); string_view(const char *, unsigned long); string_view(const string &);
  const char *data() const; unsigned long size() const; unsigned long length() const; bool empty() const;
  const char *begin() const; const char *end() const; char operator[](unsigned long) const;
  string_view substr(unsigned long = 0, unsigned long = npos) const; unsigned long find(char) const;
  explicit operator string() const;
};
bool operator==(string_view, string_view); bool operator!=(string_view, string_view);
template <class T> struct default_delete {};
template <class A, class U> struct __kopt_rebind;  // Alloc<T, R...> -> Alloc<U, R...>
template <template <class, class...> class A, class T, class... R, class U> struct __kopt_rebind<A<T, R...>, U> {
  typedef A<U, R...> type; };
// (std::allocator itself is left undeclared: host code naming it is skipped, as before; declaring it lets clang
// into host template libraries that crash it)
template <class A> struct allocator_traits {
  typedef A allocator_type; typedef typename A::value_type value_type; typedef value_type *pointer;
  typedef unsigned long size_type;
  template <class U> using rebind_alloc = typename __kopt_rebind<A, U>::type;
  template <class U> using rebind_traits = allocator_traits<rebind_alloc<U>>;
  static pointer allocate(A &, size_type); static void deallocate(A &, pointer, size_type);
};
template <class T, class D = default_delete<T>> class unique_ptr {
 public:
  unique_ptr(); unique_ptr(decltype(nullptr)); explicit unique_ptr(T *); unique_ptr(T *, D); unique_ptr(unique_ptr &&);
  unique_ptr &operator=(unique_ptr &&); T *get() const; T *operator->() const;
  typename add_lvalue_reference<T>::type operator*() const;
  explicit operator bool() const; void reset(T * = nullptr); T *release(); D &get_deleter();
};
template <class T, class D> class unique_ptr<T[], D> {
 public:
  unique_ptr(); explicit unique_ptr(T *); unique_ptr(unique_ptr &&); unique_ptr &operator=(unique_ptr &&);
  T *get() const; T &operator[](unsigned long) const; explicit operator bool() const; void reset(T * = nullptr);
  T *release();
};
template <class T> class shared_ptr {
 public:
  shared_ptr(); shared_ptr(decltype(nullptr)); explicit shared_ptr(T *); template <class D> shared_ptr(T *, D);
  shared_ptr(const shared_ptr &); template <class U> shared_ptr(const shared_ptr<U> &);
  shared_ptr &operator=(const shared_ptr &); T *get() const; T *operator->() const;
  typename add_lvalue_reference<T>::type operator*() const;
  explicit operator bool() const; void reset(); long use_count() const;
};
template <class T> class weak_ptr {
 public:
  weak_ptr(); weak_ptr(const shared_ptr<T> &); template <class U> weak_ptr(const shared_ptr<U> &);
  shared_ptr<T> lock() const; bool expired() const; void reset();
};
template <class T> class enable_shared_from_this {
 protected: enable_shared_from_this();
 public: shared_ptr<T> shared_from_this(); shared_ptr<const T> shared_from_this() const; weak_ptr<T> weak_from_this();
};
template <class T> bool operator==(const shared_ptr<T> &, decltype(nullptr));
template <class T> bool operator!=(const shared_ptr<T> &, decltype(nullptr));
template <class T, class U> bool operator==(const shared_ptr<T> &, const shared_ptr<U> &);
template <class T, class U> bool operator!=(const shared_ptr<T> &, const shared_ptr<U> &);
template <class T, class D> bool operator==(const unique_ptr<T, D> &, decltype(nullptr));
template <class T, class D> bool operator!=(const unique_ptr<T, D> &, decltype(nullptr));
template <class T, class... A> unique_ptr<T> make_unique(A &&...);
template <class T, class... A> shared_ptr<T> make_shared(A &&...);
class mutex { public: mutex(); void lock(); void unlock(); bool try_lock(); };
template <class M> class lock_guard { public: explicit lock_guard(M &); };
template <class M> class unique_lock { public: explicit unique_lock(M &); void lock(); void unlock(); };
class condition_variable {
 public: condition_variable(); void notify_one(); void notify_all(); void wait(unique_lock<mutex> &);
  template <class P> void wait(unique_lock<mutex> &, P);
};
struct once_flag { once_flag(); };
template <class F, class... A> void call_once(once_flag &, F &&, A &&...);
// (host and device: kernels take a tuple's parts, as PyTorch's philox::unpack returns them)
template <class... T> class tuple { public: __host__ __device__ constexpr tuple(); __host__ __device__ constexpr tuple(const T &...); };
template <unsigned long I, class T> struct tuple_element;
template <unsigned long I, class H, class... T> struct tuple_element<I, tuple<H, T...>> : tuple_element<I - 1, tuple<T...>> {};
template <class H, class... T> struct tuple_element<0, tuple<H, T...>> { typedef H type; };
template <unsigned long I, class T> using tuple_element_t = typename tuple_element<I, T>::type;
template <class T> struct tuple_size;
template <class... T> struct tuple_size<tuple<T...>> : integral_constant<unsigned long, sizeof...(T)> {};
template <class T> struct tuple_size<const T> : tuple_size<T> {};
template <unsigned long I, class T> struct tuple_element<I, const T> { typedef const typename tuple_element<I, T>::type type; };
template <class T> constexpr unsigned long tuple_size_v = tuple_size<T>::value;
// constexpr, as in the standard library: clang (like nvcc's --expt-relaxed-constexpr) lets device code call them
template <unsigned long I, class... T> __host__ __device__ constexpr typename tuple_element<I, tuple<T...>>::type &get(tuple<T...> &);
template <unsigned long I, class... T> __host__ __device__ constexpr const typename tuple_element<I, tuple<T...>>::type &get(const tuple<T...> &);
template <unsigned long I, class... T> __host__ __device__ constexpr typename tuple_element<I, tuple<T...>>::type &&get(tuple<T...> &&);
template <class... T> __host__ __device__ constexpr tuple<T...> make_tuple(T...);
template <class... T> __host__ __device__ constexpr tuple<T &...> tie(T &...);
template <class F> class function;
template <class R, class... A> class function<R(A...)> {
 public: function(); function(decltype(nullptr)); template <class F> function(F); R operator()(A...) const;
  explicit operator bool() const;
};
template <class I, class P> bool all_of(I, I, P); template <class I, class P> bool any_of(I, I, P);
template <class I, class P> bool none_of(I, I, P); template <class I, class T> I find(I, I, const T &);
template <class I, class P> I find_if(I, I, P); template <class I> void sort(I, I); template <class I, class C> void sort(I, I, C);
template <class I> I max_element(I, I); template <class I> I min_element(I, I);
template <class A, class B> bool equal(A, A, B); template <class A, class B> bool equal(A, A, B, B);
template <class I, class T> T accumulate(I, I, T); template <class I, class T, class O> T accumulate(I, I, T, O);
template <class I, class T> void iota(I, I, T);
template <class I, class O> O move(I, I, O); template <class I, class N, class T> I fill_n(I, N, const T &); template <class I> void reverse(I, I);
template <class I, class P> long count_if(I, I, P); template <class I, class T> long count(I, I, const T &);
// <optional> (the host's)
struct nullopt_t { explicit constexpr nullopt_t(int) {} };
constexpr nullopt_t nullopt{0};
template <class T> class optional {
 public:
  constexpr optional(); constexpr optional(nullopt_t); optional(const T &); optional(T &&);
  template <class U> optional(U &&); optional &operator=(nullopt_t);
  constexpr bool has_value() const; constexpr explicit operator bool() const;
  T &value(); const T &value() const; template <class U> T value_or(U &&) const;
  T &operator*(); const T &operator*() const; T *operator->(); const T *operator->() const; void reset();
};
template <class T> optional<T> make_optional(T);
// <atomic> (the host's: a reference count or a flag member of a host class)
enum memory_order { memory_order_relaxed, memory_order_consume, memory_order_acquire, memory_order_release,
                    memory_order_acq_rel, memory_order_seq_cst };
template <class T> struct atomic {
  atomic(); constexpr atomic(T); atomic(const atomic &) = delete;
  T load(memory_order = memory_order_seq_cst) const; void store(T, memory_order = memory_order_seq_cst);
  T exchange(T, memory_order = memory_order_seq_cst); operator T() const; T operator=(T);
  bool compare_exchange_weak(T &, T, memory_order = memory_order_seq_cst);
  bool compare_exchange_strong(T &, T, memory_order = memory_order_seq_cst);
  T fetch_add(T, memory_order = memory_order_seq_cst); T fetch_sub(T, memory_order = memory_order_seq_cst);
  T operator++(); T operator++(int); T operator--(); T operator--(int); T operator+=(T); T operator-=(T);
};
typedef atomic<bool> atomic_bool; typedef atomic<int> atomic_int; typedef atomic<unsigned> atomic_uint;
typedef atomic<long> atomic_long; typedef atomic<unsigned long> atomic_size_t;
struct atomic_flag { bool test_and_set(memory_order = memory_order_seq_cst); void clear(memory_order = memory_order_seq_cst); };
void atomic_thread_fence(memory_order);
}  // namespace std
